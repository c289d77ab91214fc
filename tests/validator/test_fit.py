"""Which rule sets fit a record (lusoria rules)."""

import json
from collections import Counter

import conftest
import pytest
from click.testing import CliRunner
from conftest import CONFORMANCE, ROOT, require_conformance

from lusoria.cli import main
from lusoria.notation import parse_record
from lusoria.validator.fit import Proposal, fitting_rules
from lusoria.validator.games import GAMES


def fit(text: str):
    return fitting_rules(parse_record(text))


def test_a_record_legal_under_its_own_rules():
    result = fit('[Game "tablut"]\n1. e3-c3 d1-d3 *')
    assert result.legal and str(result) == "legal under its declared rules (seed)"


def test_one_option_changed():
    # a jump over an enemy piece: legal once jump-over=any
    text = '[Game "latrunculi"]\n[Position "6pp/8/8/8/8/p7/P7/7P w"]\n1. a2^a4 *'
    assert str(fit(text)) == "legal if jump-over=any"


def test_another_variant():
    assert (
        str(fit('[Game "latrunculi"]\n[Variant "petteia"]\n1. @d4 *'))
        == "legal under variant piso; or under variant seneca"
    )


def test_another_variant_is_said_with_the_records_rules_tag_kept():
    """`under variant seneca` was said of a petteia record whose Rules tag says corner-capture=no: the Variant
    changed alone, the tag still says no, and the record stays illegal (h69c). Another variant's set is said as
    changed from the record's tags with the Variant alone changed: the options the Rules tag would override are
    changes, after the one option changed, which is fewer; one the tag keeps is none."""
    tags = '[Game "latrunculi"]\n[Variant "petteia"]\n[Rules "corner-capture=no"]\n'
    assert str(fit(tags + '[Position "7p/8/8/8/8/P7/8/pP5P w"]\n1. a3-a2xa1 *')) == "legal if corner-capture=yes"
    assert str(fit(tags + "1. @d4 *")) == "legal under variant piso; or under variant seneca"  # (a placement:
    # each keeps the tag's corner-capture)
    linnaeus = '[Game "tablut"]\n[Rules "throne-hostile=no"]\n1... d1-d4 2. e3-c3 e2-e3xe4 *'
    assert str(fit(linnaeus)) == (
        "legal if first=black throne-hostile=always; or under variant linnaeus with throne-hostile=always"
    )  # (two changes each: the Variant changed alone leaves the tag's throne-hostile=no)
    camps = '[Game "tablut"]\n[Position "9/9/2p6/4P4/3PKP3/1P2P4/9/9/9 b"]\n[Rules "camps=none"]\n1... c7-c4xb4 *'
    assert str(fit(camps)) == "legal if camps=ashton"  # (camps changed alone, one change: h72a; the preset that
    # sets them, said with camps=ashton, is two, review69)


def test_a_preset_that_bundles_options_is_named():
    text = '[Game "tablut"]\n1... d1-d4 2. e3-c3 e2-e3xe4 *'  # Black first, the throne hostile
    assert str(fit(text)) == "legal under variant linnaeus"


def test_no_rule_set_and_where_every_set_fails():
    """Ply 1 is White's under the seed's rules, Black's under Linnaeus': the ply is named by its
    number alone (it was "move 1, White" whatever the record's rules, validate saying "move 1,
    Black" of a Linnaeus record; found by review-43L)."""
    for variant in ("", '[Variant "linnaeus"]\n'):
        result = fit(f'[Game "tablut"]\n{variant}1. e3-d2 *')
        assert not result.changes and result.everywhere and result.furthest == 1 and result.furthest_move == ""
        assert str(result) == "legal under no rule set (580 tried): first conflict at ply 1 under every set"


def test_a_warning_stops_no_replay_of_the_search():
    """Each replay stops at its first error, not at a warning before it (a tag name in another case)."""
    result = fit('[Game "tablut"]\n[event "Club"]\n1. e3-d2 *')
    assert not result.legal and result.furthest == 1
    assert str(result) == "legal under no rule set (580 tried): first conflict at ply 1 under every set"


def test_a_record_whose_plies_are_legal_but_not_a_tag_or_its_result_says_so():
    """A malformed Date, or a result the last ply contradicts, fails under every set with no ply:
    it said "first conflict at ply 0 under every set", and of a game whose result alone is wrong,
    "the latest at ply 1", the first error of the other sets, though its own replays every ply."""
    dated = fit('[Game "tablut"]\n[Date "2026.3.7"]\n1. e3-c3 d1-d3 *')
    assert not dated.changes and dated.everywhere and dated.past_plies and dated.furthest == 2
    assert str(dated) == (
        "legal under no rule set (580 tried): every ply is legal under every set, but a tag or the result "
        "marker is not (lusoria validate says which)"
    )
    escaped = '[Game "tablut"]\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1 0-1'
    wrong = fit(escaped)  # the king escaped: 1-0
    assert not wrong.everywhere and wrong.past_plies and wrong.furthest == 9
    assert str(wrong).endswith(
        "every set fails, the latest past its last ply (9): at a tag or the result marker (lusoria validate says which)"
    )


def test_the_linnaeus_corpus_fits_the_linnaeus_preset():
    require_conformance()
    for text in (CONFORMANCE / "tablut_linnaeus_valid.lgn").read_text().split("\n\n[Game")[:5]:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("[Rules"))
        assert str(fit(("[Game" if not text.startswith("[Game") else "") + text)) == "legal under variant linnaeus"


@pytest.mark.parametrize("ci, outcome", [("", pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_a_missing_corpus_skips_saying_so_and_fails_in_ci(monkeypatch, tmp_path, ci, outcome):
    monkeypatch.setattr(conftest, "CONFORMANCE", tmp_path / "absent")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match=f"{tmp_path / 'absent'} is absent"):
        conftest.require_conformance()


def test_a_failure_in_a_variation_is_placed_at_the_variations_ply():
    """Every set failing at a variation's ply was placed at the main line's ply of that number, 2:19, which is legal,
    where the message says "in a variation" (review78)."""
    found = fit('[Game "tablut"]\n1. e3-c3 d1-d3 2. c3-c2 (2. c3-e3) d9-d7 *\n')
    assert (found.furthest, found.furthest_move, found.furthest_at) == (3, "move 2, White, in a variation", (2, 29))


def test_the_command(tmp_path):
    result = CliRunner().invoke(main, ["rules", str(ROOT / "samples/errors/latrunculi-moves.lgn"), "--json"])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows[9]["fit"]["changes"] == ["if jump-over=any"]
    assert rows[0]["fit"]["legal"] is False and rows[0]["fit"]["furthest"] == 2
    assert rows[0]["fit"]["furthest_move"] == "move 1, Black"  # the text: at move 1, Black (ply 2)
    assert rows[0]["fit"]["furthest_at"] == [8, 8]  # where it is written: the text's place (newcomer-55a)


def test_the_search_stops_each_set_at_its_first_error_without_suggestions(monkeypatch):
    """1 KB of illegal variations once cost 46 s: every set replayed every variation and
    computed suggestions at each illegal ply."""

    def no_suggestions(*_):
        raise AssertionError("suggestions computed during the search")

    monkeypatch.setattr("lusoria.validator.replay.suggestions", no_suggestions)
    from lusoria.validator.tablut import Tablut

    played = []
    original = Tablut.play
    monkeypatch.setattr(Tablut, "play", lambda self, *args: played.append(1) or original(self, *args))
    result = fit('[Game "tablut"]\n1. e3-e9 ' + "(1. e3-e9) (1. d9-d1) " * 30 + "*")
    assert result.tried == 580 and result.everywhere and result.furthest == 1
    assert len(played) == 581  # the first ply, once per set and once under the record's own rules


def test_the_search_is_bounded():
    from lusoria.validator.fit import MAX_WORK

    text = '[Game "tablut"]\n1. e3-c3 ' + "(1. e3-d3) " * 1000 + "d1-d3 2. e5-e1 *"
    result = fit(text)
    assert result.bounded and result.tried == MAX_WORK // 1003
    assert str(result) == (
        f"legal under no rule set ({MAX_WORK // 1003} tried, then the search stopped at its "
        "bound): every set fails, the latest at move 2, White (ply 3)"
    )


START = "9/6K2/9/9/9/3Pp4/9/2p6/p8 b"  # pc2 Pd4 pe4 pa1 Kg8: c2-c4 takes d4
LOOKED_BACK = (  # a tafl record whose left-out berserk continuations are looked for
    f'[Game "hnefatafl"] [Variant "tyr-9x9"] [Rules "berw=a"] [Position "{START}"] 1... c2-c4xd4 '
    "2. Kg8-g7 c6-c5xb5 *"  # c4-c6 is looked for; from it, c6-c5 takes no b5
)


def test_the_search_counts_the_positions_it_searched_for_left_out_moves(monkeypatch):
    """Each set's look back counts towards the bound, not only the record's 3 plies (300 // 3 sets)."""
    from lusoria.validator import tafl_unwritten

    monkeypatch.setattr("lusoria.validator.fit.MAX_WORK", 300)
    tafl_unwritten._NOT_FOUND.clear()  # (look backs other tests made, kept, would play nothing here)
    result = fit(LOOKED_BACK)
    assert result.bounded and result.tried == 13


def test_the_positions_searched_have_a_bound_of_their_own(monkeypatch):
    """A position searched costs far more than a ply charged (each replay stops at its first error):
    a berserk record of aagenielsen.dk that fits no set searched 440,000 positions, 20 s, under the
    plies' bound. Here each set searches 22 (but the first, the record's own rules, whose look back
    the check under them made and kept): 0, 22, …, 110 > 100 after the sixth set."""
    from lusoria.validator import tafl_unwritten

    monkeypatch.setattr("lusoria.validator.fit.MAX_SEARCHED", 100)
    tafl_unwritten._NOT_FOUND.clear()
    result = fit(LOOKED_BACK)
    assert result.bounded and result.tried == 6
    assert str(result) == (
        "legal under no rule set (6 tried, then the search stopped at its bound): first conflict at move 2, Black (ply 3) under every set"
    )


def test_a_record_its_check_found_valid_is_not_replayed_again(monkeypatch):
    """`lusoria rules` checks each record first: one found valid is legal under its own rules (the
    search replayed it once more: a third of the time of a folder of legal records)."""
    from lusoria import api
    from lusoria.validator.tablut import Tablut

    played = []
    original = Tablut.play
    monkeypatch.setattr(Tablut, "play", lambda self, *args: played.append(1) or original(self, *args))
    [(_, found)] = api.fitting([str(ROOT / "samples/tablut/escape.lgn")])
    assert str(found) == "legal under its declared rules (seed)" and found.sets == [
        {"Game": "tablut", "Variant": "seed"}
    ]
    assert len(played) == 11  # its plies, variation included, once


def test_rules_of_a_folder_proposes_the_one_set_that_makes_the_most_records_legal(tmp_path):
    """Three records of Linnaeus' rules written without their Variant (so seed's), and one of
    seed: aage (or linnaeus) makes three legal, seed one; the records that do not replay take no
    part (one that writes a tag twice is read with its first value, and takes part), and --json gives the
    records alone."""
    linnaeus = (ROOT / "samples/tablut/linnaeus.lgn").read_text().replace('[Variant "linnaeus"]\n', "")
    for number, round_tags in enumerate(['[Round "0"]', '[Round "1"]', '[Round "2"]\n[Round "two"]']):
        (tmp_path / f"l{number}.lgn").write_text(linnaeus.replace('[Round "?"]', round_tags))
    (tmp_path / "escape.lgn").write_text((ROOT / "samples/tablut/escape.lgn").read_text())
    (tmp_path / "broken.lgn").write_text('[Game "tablut"]\n[Variant "nonesuch"]\n1. e3-c3 *\n')
    result = CliRunner().invoke(main, ["rules", str(tmp_path)])
    assert result.exit_code == 1  # broken.lgn cannot be replayed
    lines = result.stdout.splitlines()
    assert lines[2] == f"{tmp_path / 'l0.lgn'}:1: record 0: legal under variant aage; or under variant linnaeus"
    assert (
        lines[-1] == "proposed: tablut: variant aage makes 3 of the 4 records legal (1 is legal under their own rules)"
    )
    assert "proposed" not in CliRunner().invoke(main, ["rules", "--json", str(tmp_path)]).stdout
    single = CliRunner().invoke(main, ["rules", str(tmp_path / "escape.lgn")]).stdout
    assert "proposed" not in single
    one_of_each = [str(ROOT / "samples/tablut/escape.lgn"), str(ROOT / "samples/laquet/whole-game.lgn")]
    assert "proposed" not in CliRunner().invoke(main, ["rules", *one_of_each]).stdout  # was "1 of the 1 records"


def test_a_folder_of_catalogue_games_gets_a_proposal_for_each_variant(tmp_path):
    """The generic tafl game's boards are its variants: no one set fits a folder of 9×9 and 19×19
    games, so each variant's records get their own proposal (it was one for all, "2 of the 4")."""
    from lusoria.api import random_records

    for variant in ("old-hnefatafl-9x9", "tablut-19x19"):
        for seed, text in enumerate(random_records("hnefatafl", 2, tags={"Variant": variant}, max_plies=6)):
            (tmp_path / f"{variant}-{seed}.lgn").write_text(text)
    lines = CliRunner().invoke(main, ["rules", str(tmp_path)]).stdout.splitlines()
    assert [line for line in lines if line.startswith("proposed")] == [
        "proposed: hnefatafl (records of variant old-hnefatafl-9x9): variant old-hnefatafl-9x9 makes 2 of the 2 "
        "records legal",
        "proposed: hnefatafl (records of variant tablut-19x19): variant tablut-19x19 makes 2 of the 2 records legal",
    ]


def test_a_record_of_unknown_result_is_legal_under_a_set_that_ends_its_game():
    """A move list writes no result (`*`): under a set where its last move ends the game, its moves
    are legal all the same (20 Simple Tafl lists read as Fetlar's: the proposal made 9 of them
    legal, not 20). A result the record writes is still checked against the set's ending."""
    from lusoria.validator.fit import legal_under

    start = '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Position "11/11/11/11/11/11/2K8/11/11/5P4p/11 w"] '
    escape = parse_record(start + "1. Kc5-a5 *")  # to the edge: a win where the edge is the escape
    edge = {"Game": "hnefatafl", "Variant": "simple-tafl-11x11"}
    assert fit(start + "1. Kc5-a5 *").legal
    assert legal_under([escape], edge) == 1
    assert legal_under([parse_record(start + "1. Kc5-a5 1-0")], edge) == 1
    assert legal_under([parse_record(start + "1. Kc5-a5 0-1")], edge) == 0  # the set ends it 1-0
    assert legal_under([parse_record(start + "1. Kc5-a5 k2-k3 *")], edge) == 0  # a move after the end


def test_a_proposed_set_is_checked_on_every_record_of_its_game():
    from lusoria.validator.fit import legal_under, proposals, rule_tags
    from lusoria.validator.tablut import Tablut

    records = [
        parse_record('[Game "tablut"]\n1. e3-c3 d1-d3 *'),
        parse_record('[Game "tablut"]\n[Variant "linnaeus"]\n1... d9-d8 2. e3-c3 *'),
        parse_record('[Game "copenhagen"]\n1. h1-h3 *'),
    ]
    seed = rule_tags(Tablut, "seed", Tablut(variant="seed").option)
    assert seed == {"Game": "tablut", "Variant": "seed"}
    assert legal_under(records, seed) == 1  # the linnaeus record starts with the wrong side under seed
    fits = [fitting_rules(record) for record in records]
    [tablut, copenhagen] = proposals(records, fits)
    assert (tablut.tags, tablut.legal, tablut.records) == (seed, 1, 2)
    assert (copenhagen.tags, copenhagen.legal, copenhagen.records) == (
        {"Game": "copenhagen", "Variant": "standard"},
        1,
        1,
    )


def test_a_record_of_another_game_is_not_counted_even_if_its_plies_are_legal_under_the_set():
    """The generic tafl game's Tablut plays on Tablut's board: replayed under Tablut's rules its plies
    are legal, but a set of one game counts the records of that game only."""
    from lusoria.validator.fit import legal_under

    plies = "1. e3-c3 d1-d3 *"
    tablut = parse_record(f'[Game "tablut"]\n{plies}')
    generic = parse_record(f'[Game "hnefatafl"]\n[Variant "tablut-9x9"]\n{plies}')
    assert legal_under([tablut, generic], {"Game": "tablut"}) == 1
    assert legal_under([generic], {"Game": "tablut"}) == 0


def test_a_catalogue_variant_is_searched_by_its_options_and_the_variants_of_its_board():
    """The generic tafl game's variant sets its board and start, which a Rules tag may not: the search
    writes only the options a set changes (it tried none before, and said "legal under no rule set
    (0 tried) … at ply None"). The king captured by two: legal once ks=w (or ks=t, or a variant of the
    same board that captures him so); variants of other boards are not tried."""
    text = (
        '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] '
        '[Position "11/11/11/11/11/11/3pK1p4/11/11/11/11 b"] 1. g5-f5xe5 0-1'
    )
    found = fit(text)
    assert not found.legal and found.tried > 100
    assert found.changes[:2] == ["if ks=t", "if ks=w"]
    assert {"Game": "hnefatafl", "Variant": "fetlar-hnefatafl-11x11", "Rules": "ks=w"} in found.sets
    assert all(GAMES["hnefatafl"].preset_options(tags["Variant"])["dim"] == "11" for tags in found.sets)
    broken = fit(text.replace("g5-f5xe5", "g5-e5"))  # onto the king's square: under no set
    assert broken.tried > 100
    assert (
        str(broken)
        == f"legal under no rule set ({broken.tried} tried): every set fails, the latest at move 1, Black (ply 1)"
    )


def test_a_key_a_variant_sets_is_also_changed_alone_and_the_nearest_set_comes_first():
    """h72a: the keys the search varies only by switching variant (`searched_as_presets`: the throne's,
    the corners', the escape…) were never changed alone, so a record that needs `cens` changed was offered
    other variants only; and of sets as many changes away, the plainest came first, so a variant far
    from the game's defaults had its one-option change said after variants that change five of its
    rules. A defender stops on the empty throne; a game played on past a third repetition."""
    start = '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Position "11/11/11/11/11/3P7/11/11/K10/11/1p9 w"] '
    found = fit(start + "1. d6-f6 *")
    assert found.changes[:5] == [
        "if cens=ad",
        "if cens=adk",
        "if cens=d",
        "if cens=dk",
        "under variant history-craft-hnefatafl-11x11",
    ]
    moves = "1. d1-d2 f4-f3 2. d2-d1 f3-f4 3. d1-d2 f4-f3 4. d2-d1 f3-f4 5. d1-d2 f4-f3 6. d2-d1 *"
    relaxed = fit(f'[Game "hnefatafl"] [Variant "opentafl-copenhagen-relaxed-11x11"] {moves}')
    assert relaxed.changes[:2] == ["if tfr=i", "under variant copenhagen-hnefatafl-minus-11x11"]  # (one option
    # off the record's rules, then two; fetlar-hnefatafl-11x11, plainer but five off, came first)


def test_a_catalogue_record_that_names_no_variant_is_searched_under_every_variant(tmp_path):
    """A tafl player's own 7×7 game, written without a Variant tag: which variant is it? Each is tried,
    and those of its board and start make it legal (it "cannot be replayed" before: found by
    new-user-11)."""
    from lusoria.api import random_records

    [text] = random_records("hnefatafl", 1, tags={"Variant": "brandubh-7x7-walker"}, max_plies=8)
    unnamed = text.replace('[Variant "brandubh-7x7-walker"]\n', "")
    found = fit(unnamed)
    assert (found.declared, found.legal, found.tried) == ("no variant", False, len(GAMES["hnefatafl"].presets))
    assert {"Game": "hnefatafl", "Variant": "brandubh-7x7-walker"} in found.sets
    assert all(GAMES["hnefatafl"].preset_options(tags["Variant"])["dim"] == "7" for tags in found.sets)
    assert str(found).startswith("legal under variant ")
    assert found.more == len(found.sets) - 5 > 0 and str(found).endswith(f"; or {found.more} more")  # 5 named
    assert fit(text.replace('"brandubh-7x7-walker"', '""')).sets == found.sets  # an empty Variant names none
    (tmp_path / "mine.lgn").write_text(unnamed)
    result = CliRunner().invoke(main, ["rules", "--jobs", "1", str(tmp_path / "mine.lgn")])
    assert result.exit_code == 0 and "legal under variant " in result.stdout, result.output


def test_of_rule_sets_that_fit_alike_the_plainest_comes_first_and_is_proposed():
    """Fetlar games written without a Variant fit 28 variants of their board alike: the first found
    was proposed (skalk-hnefatafl-11x11) and the first in the alphabet named first (a berserk
    variant). The set with the fewest options off the game's defaults wins such a tie; a berserk
    variant only when a record needs its berserk moves."""
    from lusoria.validator.fit import proposals

    plain = [parse_record(f'[Game "hnefatafl"]\n{moves} *') for moves in ("1. d1-d3 f4-d4", "1. h1-h3 f8-h8 2. k5-i5")]
    fits = [fitting_rules(record) for record in plain]
    assert [found.changes[:3] for found in fits] == 2 * [
        [
            "under variant opentafl-fetlar-11x11",  # the game's defaults (OpenTafl's Fetlar)
            "under variant opentafl-computer-fetlar-11x11",  # and one option more: tfr=w
            "under variant fetlar-hnefatafl-11x11",  # and two: surf=n, tfr=i
        ]
    ]
    [proposal] = proposals(plain, fits)
    assert str(proposal) == "hnefatafl: variant opentafl-fetlar-11x11 makes 2 of the 2 records legal"
    start = '[Game "hnefatafl"] [Position "11/1p9/11/11/11/10K/3p7/3P7/6Pp3/11/3p7 b"] 1... '
    berserk = [parse_record(start + moves) for moves in ("d1-d3xd4 d3-f3xg3 *", "b10-b9 Kk6-k7 *")]
    [needed] = proposals(berserk, [fitting_rules(record) for record in berserk])
    assert (needed.tags["Variant"], needed.legal) == ("opentafl-berserk-11x11", 2)


def test_a_proposal_is_changed_by_the_options_found_of_its_own_variant_alone():
    """The proposed set takes, one at a time, the options that sets found of its variant change
    (h72a); a set of another variant, found with its other options as well, lends it none: seed's
    set with throne-hostile=always is no evidence that linnaeus' with it is the records' rules."""
    from lusoria.validator.fit import Fit, proposals

    tags = '[Game "tablut"]\n[Variant "linnaeus"]\n[Rules "throne-hostile=no"]\n'
    records = [
        parse_record(tags + moves) for moves in ("1... d1-d4 *", "1... d1-d4 *", "1... d1-d4 2. e3-c3 e2-e3xe4 *")
    ]
    own = {"Game": "tablut", "Variant": "linnaeus", "Rules": "throne-hostile=no"}
    other = {"Game": "tablut", "Variant": "seed", "Rules": "first=black throne-hostile=always"}
    fits = [Fit("linnaeus", True, sets=[own]), Fit("linnaeus", True, sets=[own]), Fit("linnaeus", False, sets=[other])]
    [proposal] = proposals(records, fits, candidates=1)
    assert str(proposal) == "tablut: variant linnaeus with throne-hostile=no makes 2 of the 3 records legal"
    fits[2] = Fit("linnaeus", False, sets=[{"Game": "tablut", "Variant": "linnaeus"}])  # its own variant's
    [proposal] = proposals(records, fits, candidates=1)
    assert (
        str(proposal) == "tablut: variant linnaeus makes 3 of the 3 records legal (2 are legal under their own rules)"
    )


def test_a_proposal_says_how_many_are_legal_under_their_own_rules_where_that_differs():
    """A proposal that makes one record more legal than the records' own rules do (Copenhagen's
    2,052 games of real/tafl: exit-forts=no 2049, their own rules 2048) said only the proposal, as if
    their own rules made fewer still or the same: it now says both where they differ."""
    aage = {"Game": "tablut", "Variant": "aage"}
    assert [str(Proposal(aage, 3, 6, own=own)) for own in (None, 0, 1, 2, 3, 5)] == [
        "tablut: variant aage makes 3 of the 6 records legal",
        "tablut: variant aage makes 3 of the 6 records legal (none is legal under their own rules)",
        "tablut: variant aage makes 3 of the 6 records legal (1 is legal under their own rules)",
        "tablut: variant aage makes 3 of the 6 records legal (2 are legal under their own rules)",
        "tablut: variant aage makes 3 of the 6 records legal",
        "tablut: variant aage makes 3 of the 6 records legal (5 are legal under their own rules)",
    ]


def test_records_that_name_no_variant_blank_or_left_out_share_one_proposal():
    """A game whose boards are its variants groups its records by the variant they name: those that
    name none, with no Variant tag or a blank one, were two groups, the blank one proposed for as
    "records of variant  " (its key the tag's blank, taken as a variant's name)."""
    from lusoria.validator.fit import proposals

    records = [parse_record(f'[Game "hnefatafl"]{variant}\n1. d1-d3 f4-d4 *') for variant in ("", '\n[Variant " "]')]
    [proposal] = proposals(records, [fitting_rules(record) for record in records])
    assert str(proposal) == "hnefatafl: variant opentafl-fetlar-11x11 makes 2 of the 2 records legal"
    assert proposal.of is None


def test_a_sites_record_is_replayed_with_its_conventions_undone_in_the_search_and_the_proposal():
    """aagenielsen.dk never lists the captured king (RULES.md H1): `check` undoes that by the
    reader's claims (RecordText.claims), but the search and the proposal replayed the record alone,
    where the last ply's list (f9-f5xg5, the king on e5 taken too) is refused (T5): `lusoria rules`
    of the 385 Saami games proposed "aage makes 359 of the 385 records legal" where 366 are legal
    under it, the 7 whose king was captured counted out. Each replay now asks the claims."""
    from lusoria import api
    from lusoria.validator.fit import legal_under

    [saami, *_] = api.records([str(ROOT / "tests/fixtures/formats/aage/scrape.json")])
    record, aage = parse_record(saami), {"Game": "tablut", "Variant": "aage"}
    assert api.check(saami).valid and record.main.plies[-1].text == "f9-f5xg5"
    assert (legal_under([record], aage, [saami]), legal_under([record], aage)) == (1, 0)
    found = fitting_rules(record, source=saami)
    assert found.legal and found.sets == [aage] and not fitting_rules(record).legal
    [proposal] = api.proposed_rules([(saami, fitting_rules(record, valid=True, source=saami))])
    assert str(proposal) == "tablut: variant aage makes 1 of the 1 records legal"


def test_a_sites_record_illegal_under_its_own_rules_is_searched_with_its_conventions_undone():
    """The Saami game of scrape.json filed under the site's "-w" type (Swedes first): refused at
    ply 1 under its own rules, it is legal once Black moves first, its last ply's list without the
    captured king as the site writes it. The search replayed the record alone and found "legal
    under no rule set (577 tried): every set fails, the latest at move 11, Black (ply 21)"."""
    path = str(ROOT / "tests/fixtures/saami-as-w.json")
    result = CliRunner().invoke(main, ["rules", path])
    assert result.output == f"{path}:1: record 0: legal if first=black\n"  # (linnaeus, with its Rules tag kept,
    # says first=white: two changes, h69c)


def test_a_sites_ply_off_the_board_of_a_set_tried_is_a_conflict_not_an_internal_error(tmp_path):
    """A site's record whose first illegal ply lists a capture on a square off the board of a set the
    search tries (i5-i8xi9 of a 9×9 type, tried under the 7×7 variants): the claims' retry of the ply
    without its list read the square on that board, and `lusoria rules` stopped with an internal error
    ("Illegal: i5 is not a square of the 7×7 board (a1–g7)", exit status 3)."""
    path = tmp_path / "off.json"
    game = {"AageGameTypeName": "Rachunek tablut 9x9", "WhoMovedFirst": "black", "Moves": "i5-i8xi9", "WhoWon": ""}
    path.write_text(json.dumps(game))
    result = CliRunner().invoke(main, ["rules", str(path)])
    assert (result.exit_code, result.output) == (
        0,
        f"{path}:1:81: record 0: legal under no rule set (2268 tried): first conflict at ply 1 under every set\n",
    )


def test_each_record_of_a_proposal_is_replayed_with_its_own_texts_claims(tmp_path):
    """A folder of an lgn record (no claims) and a site's record (its claims undo the king its list
    leaves out), one group: each record's replay asks its own text's claims, not its neighbour's
    (review-49n: a group's texts reversed still passed, the only test of a proposal with texts
    being of one record)."""
    from lusoria import api

    [saami, *_] = api.records([str(ROOT / "tests/fixtures/formats/aage/scrape.json")])
    path = tmp_path / "opening.lgn"
    path.write_text('[Game "tablut"]\n[Variant "aage"]\n\n1. b5-b7 e6-c6 2. i6-e6xe7 g5-g8 *\n')
    [plain] = api.records([str(path)])
    assert plain.claims is None and saami.claims is not None
    fitted = [(source, fitting_rules(parse_record(source), source=source)) for source in (plain, saami)]
    assert [fit.legal for _, fit in fitted] == [True, True]
    [proposal] = api.proposed_rules(fitted)
    assert str(proposal) == "tablut: variant aage makes 2 of the 2 records legal"


def test_another_games_variants_are_tried_only_of_the_games_whose_boards_are_their_variants():
    """A folder's proposal tries another game's catalogue variants on its records' board (`_across`): those of
    the games whose boards are their variants (the generic tafl game), never a game's own presets, which its
    records' search tried already: Tablut's 9×9 records get Hnefatafl's 28 variants of that board; Hnefatafl's
    9×9 records get none (Tablut's presets were tried too: session 50's mutation run)."""
    from lusoria.validator.fit import _other_games

    tablut = [parse_record('[Game "tablut"]\n1. e3-c3 *')]
    hnefatafl = [parse_record('[Game "hnefatafl"]\n[Variant "old-hnefatafl-9x9"]\n1. e1-e3 *')]
    tried = _other_games(tablut, GAMES["tablut"])
    assert (len(tried), {tags["Game"] for tags in tried}) == (28, {"hnefatafl"})
    assert {"Game": "hnefatafl", "Variant": "old-hnefatafl-9x9"} in tried
    assert _other_games(hnefatafl, GAMES["hnefatafl"]) == []


@pytest.mark.parametrize("work, changed", [(3, True), (2, False)])
def test_a_proposals_changes_are_tried_within_the_bound_of_the_search(monkeypatch, work, changed):
    """Each change `_combined` tries replays the whole group (3 plies here): tried while the plies replayed stay
    within MAX_WORK, as the search's sets are (review72: up to 8 replays of a folder, unbounded)."""
    from lusoria.validator import fit

    monkeypatch.setattr("lusoria.validator.fit.MAX_WORK", work)
    record = parse_record('[Game "tablut"]\n[Variant "linnaeus"]\n1... d1-d4 2. e3-c3 e2-e3xe4 *')
    own = {"Game": "tablut", "Variant": "linnaeus", "Rules": "throne-hostile=no"}
    found = {"Game": "tablut", "Variant": "linnaeus"}  # (legal under it: its throne hostile)
    proposed = fit._combined([record], [None], own, 0, Counter({tuple(found.items()): 1}))
    assert proposed == ((found, 1) if changed else (own, 0))
