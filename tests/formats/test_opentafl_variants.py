"""OpenTafl's variants (the catalogue's entries with `opentafl` names): a game names its variant
(`[variant:…]`, or its rules record's `name:` as OpenTafl writes it) and is read under it; every
one lusoria plays goes through `lusoria convert` to `.otg` and back unchanged, with and without
lusoria's own tags; the others are refused by name."""

import re

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria.api import random_records
from lusoria.cli import main
from lusoria.formats import FORMATS
from lusoria.formats.otn_writer import _played, write_report
from lusoria.formats.sources import read_text
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check
from lusoria.validator.tafl import TaflGame

NAMED = sorted(FORMATS["otn"].games.items())  # "Sea_Battle_(Parlett)#13" -> the tags of its entry


def played(tags):
    game = GAMES[tags["Game"]]
    return (tags.get("Variant") or next(iter(game.presets))) in game.presets


def read(text):
    [source] = read_text(text, "otn", "x.otg")
    return check(source)


def plain(otn):
    """An OTN game as OpenTafl writes it: without lusoria's own tags."""
    return "".join(line for line in otn.splitlines(keepends=True) if not line.startswith("[lusoria-"))


@pytest.mark.parametrize(
    "key, tags", [item for item in NAMED if played(item[1])], ids=[k for k, t in NAMED if played(t)]
)
def test_every_opentafl_variant_lusoria_plays_goes_to_otg_and_back(tmp_path, key, tags):
    name, _, size = key.rpartition("#")
    [lgn] = random_records(tags["Game"], 1, seed=2, tags=tags, max_plies=16)
    (tmp_path / "game.lgn").write_text(lgn)
    written = CliRunner().invoke(main, ["convert", "--to", "otn", str(tmp_path / "game.lgn")])
    assert written.exit_code == 0, written.output
    rules = re.search(r"^\[rules:(.*)\]$", written.stdout, re.M)[1]
    written_name = re.fullmatch(rf"dim:{size} name:(\S+) .*", rules)[1]  # as OpenTafl writes it
    assert (
        FORMATS["otn"].games.get(
            f"{written_name}#{size}", FORMATS["otn"].games.get(f"{written_name.replace('_', ' ')}#{size}")
        )
        == tags
    )  # (one of the names OpenTafl gives it)
    (tmp_path / "game.otg").write_text(written.stdout)
    (tmp_path / "opentafl.otg").write_text(plain(written.stdout))
    original = check(lgn)
    for path in ("game.otg", "opentafl.otg"):
        back = CliRunner().invoke(main, ["convert", "--to", "lgn", str(tmp_path / path)])
        assert back.exit_code == 0, back.output
        again = check(back.stdout)
        assert again.valid and again.record.main == original.record.main
        assert {k: again.record.tags.get(k) for k in ("Game", "Variant", "Rules")} == {
            k: original.record.tags.get(k) for k in ("Game", "Variant", "Rules")
        }


SHIPPED = [  # OpenTafl v0.4.8.0b (jslater89/OpenTafl @ 6895051): Variants.java's ten, then external-rules.conf's four
    *["Sea Battle#9", "Fetlar#11", "Copenhagen#11", "Copenhagen (relaxed shieldwall)#11", "Berserk#11"],
    *["Brandub#7", "Tawlbwrdd#11", "Tablut#9", "Foteviken Tablut#9", "Magpie#7"],
    *["Computer_Fetlar#11", "Tablut#15", "Sea_Battle_(Parlett)#13", "Alea_Evangelii#19"],
]


def test_every_opentafl_variant_is_played_and_what_lusoria_lacks_is_refused_by_name():
    """Every variant OpenTafl ships (by its name and board, as its games write them) is the
    catalogue's, so the test above writes and reads it, and is played (berserk, knights and
    commanders included); a rules record with OpenTafl's guards (g) is refused, naming them."""
    assert [key for key in SHIPPED if key not in FORMATS["otn"].games] == []
    assert [key for key, tags in NAMED if not played(tags)] == []
    report = read("[rules:dim:7 kj:r ber:c start:/3t3/3g3/3T3/ttTKTtt/3T3/3t3/3t3/]\n")
    assert not report.valid and "guards are not supported" in report.diagnostics[0].message


TABLUT = "dim:9 esc:e atkf:y ks:c cor: cens: cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
SEA_BATTLE = "dim:13 name:Sea_Battle_(Parlett) esc:e ka:n cor: cen: start:/4ttttt4/5t1t5/6t6/{}/t3T3T3t/tt3TTT3tt/"
SEA_BATTLE += "t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"


@pytest.mark.parametrize(
    "header, tags",
    [
        (f"[rules:{TABLUT}]", {"Game": "tablut", "Variant": "aage", "Rules": "throne-stop=none"}),  # no name
        (f"[rules:dim:9 name:Tablut {TABLUT[6:]}]", {"Game": "hnefatafl", "Variant": "opentafl-tablut-9x9"}),
        (f"[variant:tablut]\n[rules:{TABLUT}]", {"Game": "hnefatafl", "Variant": "opentafl-tablut-9x9"}),  # any case
        (f"[variant:Fetlar]\n[rules:{TABLUT}]", {"Game": "tablut", "Variant": "aage", "Rules": "throne-stop=none"}),
        (  # not its rules, but a built-in game's: that game, as without a name
            f"[rules:{TABLUT.replace('ks:c', 'ks:s')} name:Tablut]",
            {"Game": "tablut", "Variant": "aage", "Rules": "throne-stop=none king-capture=4"},
        ),
        (  # the generic game's: the variant it names, and what differs
            f"[rules:{TABLUT} tfr:w name:Tablut]",
            {"Game": "hnefatafl", "Variant": "opentafl-tablut-9x9", "Rules": "tfr=w"},
        ),
        (  # the variant it names, and what differs
            f"[rules:{SEA_BATTLE.format('6T6')} surf:n]",
            {"Game": "hnefatafl", "Variant": "opentafl-sea-battle-13x13", "Rules": "surf=n"},
        ),
        (  # its start elsewhere: a Position
            f"[rules:{SEA_BATTLE.format('13')}]",
            {"Game": "hnefatafl", "Variant": "opentafl-sea-battle-13x13", "Position": "…"},
        ),
        (  # no start, as written by hand: the variant it names says it
            "[rules:dim:13 name:Sea_Battle_(Parlett) esc:e ka:n cor: cen:]",
            {"Game": "hnefatafl", "Variant": "opentafl-sea-battle-13x13"},
        ),
        (  # and OTN's defaults where it names no entry (ka:y, the board's corners and throne)
            "[variant:Sea Battle (Parlett)]\n[rules:dim:13 esc:e]",
            {"Game": "hnefatafl", "Variant": "opentafl-sea-battle-13x13", "Rules": "ka=y cor=default cen=default"},
        ),
    ],
)
def test_a_game_is_read_under_the_variant_it_names_on_its_board(header, tags):
    report = read(f"{header}\n\n1. d1-d3 e4-b4\n" if "dim:9" in header else f"{header}\n\n1. e1-e2\n")
    assert report.valid, [diagnostic.message for diagnostic in report.diagnostics]
    found = {
        key: report.record.tags[key] for key in ("Game", "Variant", "Rules", "Position") if key in report.record.tags
    }
    assert found == {key: found.get(key) if value == "…" else value for key, value in tags.items()}


def test_a_game_nearest_the_generic_games_first_variant_is_read_under_it_by_name():
    """h78c: the Variant tag is written for the generic game's first variant too (the game describes its boards by
    its variants, and reads no record without one): left out as a game's default preset is, the file was refused,
    `hnefatafl describes its boards by its variants`."""
    rules = "dim:9 esc:e atkf:n surf:n tfr:i ka:n cor: ks:w start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    report = read(f"[rules:{rules}]\n\n1. e4-b4 d1-d3\n")  # (rachunek-tablut-9x9 but ks:w; the defenders first)
    assert report.valid, [diagnostic.message for diagnostic in report.diagnostics]
    assert {key: report.record.tags.get(key) for key in ("Game", "Variant", "Rules")} == {
        "Game": "hnefatafl",
        "Variant": "rachunek-tablut-9x9",
        "Rules": "ks=w",
    }


def test_a_piece_list_is_written_with_every_piece_of_the_sides_it_names_as_opentafl_writes_it():
    """OpenTafl reads a piece list (RulesSerializer, TaflmanCodes: t c n k m, T C N K M) as the
    pieces it names: `cenh:tT` would leave the commanders and knights of berserk hnefatafl out of
    what lusoria plays as `cenh=ad` (each of a side's pieces is its soldier to lusoria)."""
    tags = {"Variant": "berserk-hnefatafl-11x11", "Rules": "cenh=ad corp=dk cens=dk"}
    [record] = random_records("hnefatafl", 1, seed=3, tags=tags, max_plies=4)
    result = CliRunner().invoke(main, ["convert", "--to", "otn", "-"], input=record)
    rules = re.search(r"^\[rules:(.*)\]$", result.stdout, re.M)[1]
    entries = dict(entry.split(":", 1) for entry in rules.split())
    assert {key: entries[key] for key in ("cenh", "corp", "cens")} == {
        "cenh": "tcnkmTCNM",
        "corp": "TCNKM",
        "cens": "TCNKM",
    }
    back = read(result.stdout)
    assert back.valid and {key: back.rules.option[key] for key in ("cenh", "corp", "cens")} == {
        "cenh": "ad",
        "corp": "dk",
        "cens": "dk",
    }


def test_opentafls_copenhagen_keeps_its_repetition_through_lusoria(tmp_path):
    """OpenTafl writes its Copenhagen `tfr:w`, which lusoria reads as its Copenhagen, whose repetition
    it does not check (C12), with a note: `convert --to otn` writes the `tfr:w` back (OtnRepetition),
    not the `tfr:i` of lusoria's rules, and the note once."""
    source = ROOT / "tests" / "fixtures" / "formats" / "otn" / "opentafl-copenhagen.otg"
    otn = CliRunner().invoke(main, ["convert", "--to", "otn", str(source)]).stdout
    rules = re.search(r"^\[rules:(.*)\]$", otn, re.M)[1]
    assert rules.startswith("dim:11 name:Copenhagen tfr:w sw:s efe:y ")
    (tmp_path / "again.otg").write_text(otn)
    again = CliRunner().invoke(main, ["convert", "--to", "otn", str(tmp_path / "again.otg")]).stdout
    assert f"[rules:{rules}]" in again and again.count("(tfr:w) is not checked") == 1
    lgn = CliRunner().invoke(main, ["convert", "--to", "lgn", str(source)]).stdout
    assert '[OtnRepetition "w"]' in lgn and '[Game "copenhagen"]' in lgn
    (tmp_path / "game.lgn").write_text(lgn)
    assert f"[rules:{rules}]" in CliRunner().invoke(main, ["convert", "--to", "otn", str(tmp_path / "game.lgn")]).stdout


TAFL_VARIANTS = [
    (name, preset) for name, game in sorted(GAMES.items()) if issubclass(game, TaflGame) for preset in game.presets
]


@pytest.mark.parametrize("game, variant", TAFL_VARIANTS, ids=[f"{game}/{variant}" for game, variant in TAFL_VARIANTS])
def test_every_tafl_variant_writes_an_otg_whose_rules_record_reads_back_as_its_rules(game, variant):
    """Every variant lusoria knows (the built-in games' presets and the catalogue's entries) writes an
    `.otg` that reads back as the same game, variant and options, and whose rules record alone (the
    file without lusoria's tags, as OpenTafl reads it) reads back as the same rules (the catalogue's
    first entry of them: the record does not name lusoria's), but where `convert` says what it loses
    (the format's `loses`: Tablut's Tuichi, Ashton's camps, an entry that a built-in game of other
    rules reads)."""
    [lgn] = random_records(game, 1, seed=1, tags={"Variant": variant}, max_plies=4)
    report = check(lgn)
    otn = write_report(report)
    again = read(otn)
    assert again.valid and again.record.main == report.record.main
    assert {key: again.record.tags.get(key) for key in ("Game", "Variant", "Rules")} == {
        key: report.record.tags.get(key) for key in ("Game", "Variant", "Rules")
    }
    alone = read(plain(otn))
    assert alone.valid and alone.record.main.plies == report.record.main.plies
    lost = FORMATS["otn"].loses(report) or ""  # (and what OpenTafl plays otherwise, said after it: h71b)
    assert (_played(alone.rules) == _played(report.rules)) != lost.startswith("OTN's rules record")


FOTEVIKEN = (  # as OpenTafl's RulesSerializer writes its Foteviken Tablut: its camps' table hostile to the king alone
    "dim:9 name:Foteviken_Tablut esc:e cor: cenp: cens: cenre: cenh: afor:d1,e1,f1,e2,a4,i4,a5,b5,h5,i5,a6,i6,e8,"
    "d9,e9,f9 aforh:K aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
)


def test_a_rules_record_lusoria_did_not_write_is_read_with_its_squares_hostile_by_side():
    """OpenTafl judges a square's hostility by side (GenericRules.isSpaceHostileToSide: `t`, `T`, the
    king a defender), so its Foteviken Tablut's `aforh:K` makes no camp hostile, and its class none
    either: lusoria's entry counted an empty camp against the king. A file OpenTafl wrote is read so;
    one lusoria wrote as its letters say (aagenielsen.dk's Foteviken tablut: camps hostile to the king)."""
    opentafl = read(f"[rules:{FOTEVIKEN}]\n\n1. d1-d2 e3-d3\n")
    assert opentafl.valid and opentafl.rules.option["aforh"] == ""
    assert {key: opentafl.record.tags.get(key) for key in ("Variant", "Rules")} == {
        "Variant": "opentafl-foteviken-tablut-9x9",
        "Rules": None,
    }
    [lgn] = random_records("hnefatafl", 1, seed=1, tags={"Variant": "foteviken-tablut-9x9"}, max_plies=4)
    otn = write_report(check(lgn))
    assert re.search(r"^\[rules:.* aforh:K ", otn, re.M)  # (in the rules record: the note says it too)
    assert read(otn).rules.option["aforh"] == "k"
    assert read(plain(otn)).rules.option["aforh"] == ""  # (as OpenTafl reads it, which the file says:)
    assert "otn writer: an empty attackers' fort counts against the king but captures no defender's soldier" in otn


BERSERK = (  # as OpenTafl's RulesSerializer writes its Berserk (threefoldRepetitionResult: THIRD_REPETITION_LOSES)
    "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
    "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/"
)


def test_opentafls_berserk_is_lost_by_the_side_that_repeats_a_position_a_third_time():
    """The catalogue's Berserk drew at a threefold repetition (OTN's default), where OpenTafl's
    class makes the side that moves into it lose (`tfr:l`): its record reads as the entry itself."""
    report = read(f"[rules:{BERSERK}]\n\n1. f4-b4 a8-a9\n")
    assert report.valid and report.rules.option["tfr"] == "l"
    assert {key: report.record.tags.get(key) for key in ("Variant", "Rules")} == {
        "Variant": "opentafl-berserk-11x11",
        "Rules": None,
    }


NOTES = {
    "old-magpie-cross-7x7": "an empty corner captures the defenders' soldiers but does not count against the king "
    "(corh); OpenTafl judges a square's hostility by side, the king a defender, and reads corh:tcnkmTCNM as hostile "
    "to both, so it captures the king against it too",
    "brandubh-noreturn-7x7": "the king may pass over the throne but not stop on it coming from another square "
    "(cenre); OpenTafl reads cenre:tcnkmTCNM as keeping him from passing over it too",
    "opentafl-foteviken-tablut-9x9": "the attackers and the defenders' soldiers and the king may pass over an "
    "attackers' fort but not stop on it coming from another square (aforre); OpenTafl reads aforre: as keeping "
    "them from passing over it too",
}


@pytest.mark.parametrize("variant", sorted(NOTES))
def test_convert_says_in_the_start_comment_what_opentafl_plays_otherwise(tmp_path, variant):
    """A square hostile to the defenders' soldiers and not to the king (OpenTafl: to both), and a
    region a piece passes over but may not stop on (OpenTafl: nor pass over), each said in its own
    words by `convert --to otn`, as by the library; the note is not read back as a comment."""
    [lgn] = random_records("hnefatafl", 1, seed=1, tags={"Variant": variant}, max_plies=2)
    (tmp_path / "game.lgn").write_text(lgn)
    otn = CliRunner().invoke(main, ["convert", "--to", "otn", str(tmp_path / "game.lgn")]).stdout
    assert otn == write_report(check(lgn))
    assert f"\n[start-comment:otn writer: {NOTES[variant]}]\n" in otn
    assert read(otn).record.main.comments == []
