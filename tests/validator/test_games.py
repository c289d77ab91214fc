"""A game is one plug-in point: a toy game registered from the test suite (tests/toy_game.py,
its grammar tests/fixtures/slide.lark) goes through the CLI like the built-in games."""

import copy
import json
import pickle
import re
import sys
import types
import xml.etree.ElementTree as ElementTree
from dataclasses import FrozenInstanceError, dataclass
from importlib.metadata import EntryPoint
from inspect import getattr_static
from pathlib import Path

import pytest
import toy_game
from click.testing import CliRunner
from conftest import ROOT
from toy_game import Slide

from lusoria import plugins
from lusoria.api import CanonicalFile, random_records
from lusoria.cli import main
from lusoria.notation.reader import SyntaxProblem, known_games, parse_record
from lusoria.validator.base import Game, Presets, ReadOnly
from lusoria.validator.games import GAMES, Registry, game_class, register
from lusoria.validator.hnefatafl import Hnefatafl, PresetsRead

WON = '[Game "Slide"]\n[White "Ann"]\n\n1. a1-a2 a3-b3 2. a2-a3 1-0\n'
DIAGONAL = '[Game "Slide"]\n[White "Bob"]\n\n1. a1-a2 a3-b3 2. a2-b3 1-0\n'  # a diagonal step: Z1 at ply 3
MIRRORED = '[Game "Slide"]\n[White "Cid"]\n\n1. c1-c2 c3-b3 2. c2-c3 1-0\n'  # the game WON, mirrored


@pytest.fixture
def slide():
    register(Slide)
    yield
    GAMES.unregister("slide")


@pytest.fixture
def records(tmp_path):
    (tmp_path / "won.lgn").write_text(WON)
    (tmp_path / "diagonal.lgn").write_text(DIAGONAL)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_registry_knows_a_registered_game_and_forgets_it(slide):
    built_in = tuple(name for name in known_games() if name != "slide")
    assert "slide" in known_games() and game_class("Slide") is Slide
    assert parse_record(WON).game == "slide"
    GAMES.unregister("slide")
    assert known_games() == built_in
    with pytest.raises(SyntaxProblem, match="unknown game 'Slide'") as problem:
        parse_record(WON)
    assert problem.value.rule == "tag"


def test_a_registered_game_may_replace_a_built_in_one_until_it_is_unregistered():
    from lusoria.validator.tablut import Tablut

    class Renamed(Slide):
        name = "tablut"

    games = len(GAMES)
    assert register(Renamed) is Renamed and game_class("TABLUT") is Renamed and "Tablut" in GAMES
    assert len(GAMES) == games  # replaced, not added
    GAMES.unregister("tablut")
    assert game_class("tablut") is Tablut and len(GAMES) == games


def test_register_refuses_what_the_registry_could_not_find_again():
    """A name with capitals was registered as written while the registry looks names up in lower
    case: `[Game "BigSlide"]` was an unknown game 'bigslide' (did you mean BigSlide?); a class that
    is no game raised an AttributeError."""

    class BigSlide(Slide):
        name = "BigSlide"

    games = known_games()
    for refused, why in ((BigSlide, "its name 'BigSlide' is not in lower case"), (int, "it is not a Game class")):
        with pytest.raises(ValueError, match=f"^{re.escape(f'cannot register {refused!r}: {why}')}$"):
            register(refused)
    assert known_games() == games


def test_register_refuses_a_game_named_as_another_games_variant_which_it_would_hide():
    """A plug-in's game named as a catalogue's entry took the name: `--variant copenhagen-11x11` and
    `explain` found the game, no longer Copenhagen's variant."""
    from lusoria.api import variant_tags

    class Named(Slide):
        name = "copenhagen-11x11"

    class OfTablut(Slide):
        name = "ashton"

    games = known_games()
    for refused, holder in ((Named, "hnefatafl"), (OfTablut, "tablut")):
        said = (
            f"cannot register {refused!r}: its name '{refused.name}' is {holder}'s variant, which a Variant tag"
            " naming it would no longer find: choose another"  # (a library's message names no command)
        )
        with pytest.raises(ValueError, match=f"^{re.escape(said)}$"):
            register(refused)
    assert known_games() == games and variant_tags("copenhagen-11x11") == {"Game": "copenhagen"}


@pytest.mark.parametrize("name", GAMES.built_in)
def test_every_games_presets_are_read_only_and_copy_pickle_and_serialise_as_a_dict(name):
    """A caller that changed Tablut's presets changed every later record's variants (Hnefatafl's were
    read-only, but copy.deepcopy and json.dumps of them raised TypeError)."""
    presets = GAMES[name].presets
    first, options = next(iter(presets.items()))
    copy_presets = "change a copy, {variant: dict(options) for variant, options in presets.items()}"
    tried = {  # what the caller tried, said, and how to copy what it tried to change
        lambda: presets.__setitem__(
            "mine", {}
        ): f"cannot set 'mine' in a Presets: it is read-only, as every caller shares it; {copy_presets}",
        lambda: presets.__delitem__(first): f"cannot delete {first!r} from a Presets",
        lambda: presets.update(mine={}): "cannot update() a Presets",
        lambda: presets.setdefault("mine", {}): "cannot setdefault('mine') in a Presets",
        lambda: presets.pop(first): f"cannot pop({first!r}) from a Presets",
        presets.popitem: "cannot popitem() from a Presets",
        presets.clear: "cannot clear() a Presets",
        lambda: options.__setitem__(
            "first", "black"
        ): "cannot set 'first' in a ReadOnly: it is read-only, as every caller shares it; change a copy, dict(…)",
    }
    for change, said in tried.items():
        with pytest.raises(TypeError, match=f"^{re.escape(said)}"):
            change()
    with pytest.raises(TypeError, match=re.escape("cannot update (|=) a Presets")):
        presets |= {"mine": {}}
    for shared in (presets, options):  # (an attribute set on them was every caller's too)
        with pytest.raises(AttributeError, match="object has no attribute 'mine'"):
            shared.mine = {}
    assert GAMES[name].presets == presets and "mine" not in presets and first in presets and "first" not in options
    assert copy.deepcopy(presets) is presets and copy.copy(presets) is presets
    assert json.loads(json.dumps(presets)) == presets and json.loads(json.dumps(options)) == options
    again = pickle.loads(pickle.dumps(presets))
    assert again == presets and type(again) is type(presets)
    with pytest.raises(TypeError, match="^cannot set 'first' in a ReadOnly"):
        again[first]["first"] = "black"
    mine = {variant: dict(options) for variant, options in presets.items()}
    mine[first]["mine"] = "yes"  # (a copy is the caller's to change)
    assert "mine" not in presets[first]


@pytest.mark.parametrize("name", GAMES.built_in)
def test_every_games_letters_are_read_only_the_base_games_too(name):
    """`Game.letters` was a dict of the class, and Tablut's and Latrunculi's the dict their boards are
    written with: a caller that set a letter changed every game's position strings."""
    for game in (Game, GAMES[name]):
        letters, first = game.letters, next(iter(game.letters), 1)
        with pytest.raises(TypeError, match=f"^cannot set {first!r} in a ReadOnly: it is read-only"):
            letters[first] = "?"
        assert type(letters) is ReadOnly and first not in Game.letters


def test_fromkeys_makes_one_read_only_where_it_made_a_presets_it_could_not_fill():
    """`Presets.fromkeys` raised that Presets.__init__ lacked an argument, ReadOnly's that it was read-only."""
    made = Presets.fromkeys(["seed", "wide"], {"width": "5"})
    assert type(made) is Presets and made == {"seed": {"width": "5"}, "wide": {"width": "5"}}
    assert type(made["wide"]) is ReadOnly
    assert type(ReadOnly.fromkeys("ab")) is ReadOnly and ReadOnly.fromkeys("ab", 0) == {"a": 0, "b": 0}


def test_a_plug_ins_plain_dict_presets_and_letters_are_read_only_once_registered(registry):
    """A plug-in's game writes its presets and letters as plain dicts (tests/plugin's toy tafl game does):
    registered, or found by its entry point, they were every caller's to change."""

    class Plain(Slide):
        name = "plain"
        presets = {"seed": {}, "wide": {"width": "5"}}
        letters = {1: "S"}

    try:
        register(Plain)
        assert type(Plain.presets) is Presets and Plain.presets == {"seed": {}, "wide": {"width": "5"}}
        with pytest.raises(TypeError, match="^cannot set 'width' in a ReadOnly"):
            Plain.presets["wide"]["width"] = "7"
        with pytest.raises(TypeError, match="^cannot set 1 in a ReadOnly"):
            Plain.letters[1] = "X"
        assert Plain.letters == {1: "S"}
    finally:
        GAMES.unregister("plain")
    games, _ = registry
    assert type(games["slide"].presets) is Presets  # (found by its entry point)
    assert type(getattr_static(Hnefatafl, "presets")) is PresetsRead  # (a descriptor stays one)


def test_a_plug_ins_game_whose_presets_give_a_variant_no_options_is_refused_the_others_found(
    registry, monkeypatch, capsys
):
    """Made read-only, such presets raised a bare ValueError from the registry: an entry point's took
    every game with it (none named, not even the built-in ones), and `register` said `dictionary update
    sequence element #0 has length 1; 2 is required` (review-48lb). An entry point's game with plain
    dicts is found with them read-only (a class of its own: the test above's Slide may be registered
    already, its dicts made read-only then)."""

    class Worded(Slide):
        name = "worded"
        presets = {"seed": "width=5"}

    class Plain(Slide):
        name = "plain"
        presets = {"seed": {"width": "3"}}
        letters = {1: "S"}

    for name, game in (("Worded", Worded), ("Plain", Plain)):
        monkeypatch.setattr(toy_game, name, game, raising=False)
        monkeypatch.setitem(POINTS, name.lower(), f"toy_game:{name}")
    games, _ = registry
    assert games.names == ("plain", "slide", "tablut")
    assert type(games["plain"].presets) is Presets and type(Plain.letters) is ReadOnly
    said = "its presets give the variant 'seed' a str, not a dict of its options"
    assert f"'worded = toy_game:Worded' (test.games) is left out: {said}\n" in capsys.readouterr().err
    with pytest.raises(ValueError, match=f"^cannot register {re.escape(repr(Worded))}: {said}$"):
        register(Worded)
    assert "worded" not in GAMES and Worded.presets == {"seed": "width=5"}


POINTS = {"Slide": "toy_game:Slide", "number": "math:pi", "class": "fractions:Fraction", "tablut": "toy_game:Slide"}


@pytest.fixture
def registry(monkeypatch):
    """A registry of its own: one built-in game, and entry points (read in this process) of a game
    (`Slide`), of things that are no game, and of a built-in game's name; each read of them kept."""
    reads = []

    def points(group):
        reads.append(group)
        return [EntryPoint(name, value, group) for name, value in POINTS.items()] if group == "test.games" else []

    monkeypatch.setattr(plugins, "entry_points", points)
    monkeypatch.delenv(plugins.NO_ENTRY_POINTS)
    return Registry({"tablut": "lusoria.validator.tablut:Tablut"}, "test.games"), reads


def test_entry_points_loaded_without_a_refusal_check_are_taken_when_they_load_to_what_their_group_takes(
    monkeypatch, capsys
):
    """h83a: `plugins.loaded` with no `refused` (as the formats' registry calls it) takes each entry point that
    loads to what its group takes, and says nothing (`refused` None was called)."""
    points = [EntryPoint("pi", "math:pi", "test.numbers"), EntryPoint("path", "os:path", "test.numbers")]
    monkeypatch.setattr(plugins, "entry_points", lambda group: points if group == "test.numbers" else [])
    monkeypatch.delenv(plugins.NO_ENTRY_POINTS, raising=False)
    assert plugins.loaded("test.numbers", lambda value: isinstance(value, float), "a number") == {
        "pi": 3.141592653589793
    }
    assert capsys.readouterr().err == (
        "lusoria: warning: the plug-in 'path = os:path' (test.numbers) is left out: it loads to "
        f"{plugins._shortened(repr(__import__('os').path))}, not a number\n"
    )


def test_the_entry_points_are_read_once_when_a_name_is_not_found_or_every_name_is_asked_for(registry, capsys):
    from lusoria.validator.tablut import Tablut

    games, reads = registry
    assert "tablut" in games and games["TABLUT"] is Tablut and 3 not in games and reads == []
    assert games.names == ("slide", "tablut") and reads == ["test.games"]  # the built-in game keeps its name
    assert "slide" in games and games["Slide"] is Slide and len(games) == 2 and reads == ["test.games"]
    assert capsys.readouterr().err.splitlines() == [
        "lusoria: warning: the plug-in 'number = math:pi' (test.games) is left out: it loads to 3.141592653589793, "
        "not a Game class",
        "lusoria: warning: the plug-in 'class = fractions:Fraction' (test.games) is left out: it loads to "
        "<class 'fractions.Fraction'>, not a Game class",
    ]


def test_a_game_found_by_its_name_alone_reads_the_entry_points(registry):
    games, reads = registry
    assert "slide" in games and reads == ["test.games"]
    assert games.in_page_order == ("tablut", "slide")


def test_a_registered_game_needs_no_entry_point_and_one_of_them_comes_back_after_it(registry):
    games, reads = registry

    class Other(Slide):
        name = "other"

    assert games.register(Other) is Other and games["other"] is Other and "other" in games and reads == []
    games.unregister("other")
    assert "other" not in games and reads == ["test.games"]

    class Over(Slide):
        pass

    assert games.register(Over) is Over and games["slide"] is Over
    games.unregister("slide")
    assert games["slide"] is Slide


def test_an_entry_points_game_named_as_a_built_in_games_variant_is_left_out_and_said(monkeypatch, capsys):
    """An entry point's game `ashton` was taken, hiding Tablut's variant from a Variant tag and `explain`
    (`register` refused it alone). It is left out, said as `register` says it; a built-in game whose
    variants, asked while the entry points load, ask the registry again finds none of them yet (it recursed)."""
    from lusoria.validator.tablut import Tablut

    asked = []

    class Ashton(Slide):
        name = "ashton"

    class Asking(Tablut):
        @classmethod
        def variant_notes(cls):
            asked.append(games.names)
            return super().variant_notes()

    monkeypatch.setattr(toy_game, "Ashton", Ashton, raising=False)
    monkeypatch.setattr(toy_game, "Asking", Asking, raising=False)
    points = [
        EntryPoint("ashton", "toy_game:Ashton", "test.games"),
        EntryPoint("Slide", "toy_game:Slide", "test.games"),
    ]
    monkeypatch.setattr(plugins, "entry_points", lambda group: points if group == "test.games" else [])
    monkeypatch.delenv(plugins.NO_ENTRY_POINTS)
    games = Registry({"tablut": "toy_game:Asking"}, "test.games")
    assert games.names == ("slide", "tablut") and "ashton" not in games and asked == [("tablut",), ("tablut",)]
    assert capsys.readouterr().err == (
        "lusoria: warning: the plug-in 'ashton = toy_game:Ashton' (test.games) is left out: its name 'ashton' is "
        "tablut's variant, which a Variant tag naming it would no longer find\n"
    )


def test_an_entry_point_whose_game_has_another_name_is_left_out_and_said(monkeypatch, capsys):
    """`other = "toy_game:Slide"` listed a game `other` whose records are `slide`'s: `[Game "slide"]`
    was an unknown game, and `[Game "other"]` was read as slide."""
    points = [EntryPoint("other", "toy_game:Slide", "test.games"), EntryPoint("Slide", "toy_game:Slide", "test.games")]
    monkeypatch.setattr(plugins, "entry_points", lambda group: points if group == "test.games" else [])
    monkeypatch.delenv(plugins.NO_ENTRY_POINTS)
    games = Registry({}, "test.games")
    assert games.names == ("slide",) and games["slide"] is Slide
    assert capsys.readouterr().err == (
        "lusoria: warning: the plug-in 'other = toy_game:Slide' (test.games) is left out: it loads to a Game class "
        "named 'slide', not 'other'\n"
    )


def test_a_plug_ins_name_is_shown_whole_up_to_80_characters(monkeypatch, capsys):
    names = ["a" * 80, "b" * 81]
    points = [EntryPoint(name, "toy_game:Nothing", "test.games") for name in names]
    monkeypatch.delenv(plugins.NO_ENTRY_POINTS)
    monkeypatch.setattr(plugins, "entry_points", lambda group: points if group == "test.games" else [])
    assert Registry({}, "test.games").names == ()
    why = "is left out: it cannot be loaded: AttributeError: module 'toy_game' has no attribute 'Nothing'"
    assert capsys.readouterr().err.splitlines() == [
        f"lusoria: warning: the plug-in '{'a' * 80} = toy_game:Nothing' (test.games) {why}",
        f"lusoria: warning: the plug-in '{'b' * 80}… = toy_game:Nothing' (test.games) {why}",
    ]


def test_the_editor_completes_the_game_and_its_plies(slide):
    from lusoria.document import Document, completions

    assert "slide" in [c.label for c in completions(None, '[Game "', 0, 7)]
    document = Document()
    document.update(document.split('[Game "slide"]\n\n1. a1-a2 \n'))
    plies = [c.label for c in completions(document.entry_at(2), "1. a1-a2 ", 2, 9) if c.kind == "ply"]
    assert sorted(plies) == ["a3-b3", "c3-b3", "c3-c2"]  # a2 is taken


def test_validate_a_valid_and_an_invalid_record(slide, records):
    valid = run("validate", "--jobs", "1", str(records / "won.lgn"))
    assert valid.exit_code == 0 and "1 record: 1 valid, 0 invalid" in valid.output
    invalid = run("validate", "--jobs", "1", "--json", str(records / "diagonal.lgn"))
    assert invalid.exit_code == 1
    [diagnostic] = json.loads(invalid.output)["diagnostics"]
    assert (diagnostic["rule"], diagnostic["ply"], diagnostic["text"]) == ("Z1", 3, "a2-b3")
    assert diagnostic["suggestions"] == ["a2-a3", "a2-b2"]  # the grid distance of validator/grid.py


def test_fmt_writes_the_canonical_record(slide, records):
    result = run("fmt", str(records / "won.lgn"))
    assert result.exit_code == 0
    assert result.output.startswith('[Game "slide"]\n[Event "?"]')
    assert result.output.endswith('[White "Ann"]\n[Black "?"]\n[Result "1-0"]\n\n1. a1-a2 a3-b3 2. a2-a3 1-0\n')


def test_show_draws_the_game_as_svg(slide, records):
    result = run("show", "--format", "svg", "--ply", "3", str(records / "won.lgn"))
    assert result.exit_code == 0
    root = ElementTree.fromstring(result.output)
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "Slide: Ppp/.../..P b"
    marked = {
        e.get("data-square"): e.get("class")
        for e in root.iter()
        if e.get("data-square") and e.get("class", "").startswith("square") and e.get("class") != "square "
    }
    assert marked == {"a2": "square from", "a3": "square to"}
    pieces = sorted(
        (e.get("data-square"), e.get("class")) for e in root.iter() if e.get("class", "").startswith("piece")
    )
    assert pieces == [
        ("a3", "piece white man"),
        ("b3", "piece black man"),
        ("c1", "piece white man"),
        ("c3", "piece black man"),
    ]


def test_the_rules_finder_and_random_games(slide, records):
    from lusoria.validator.replay import check

    found = run("rules", str(records / "diagonal.lgn"))
    assert (
        found.exit_code == 0
        and "legal under no rule set (1 tried): first conflict at move 2, White (ply 3)" in found.output
    )
    for text in random_records("slide", 3, seed=7):
        report = check(text)
        assert report.valid and report.record.result in ("1-0", "0-1", "*"), text


def test_html_replays_the_game(slide, records, tmp_path):
    page = tmp_path / "won.html"
    result = run("html", "-o", str(page), str(records / "won.lgn"))
    assert result.exit_code == 0
    text = page.read_text()
    assert "Slide: p.p/.../P.P w" in text and "Slide: Ppp/.../..P b" in text and "a2-a3" in text


def test_import_and_query(slide, records, tmp_path):
    db = str(tmp_path / "slide.db")
    imported = run("import", "--db", db, str(records / "won.lgn"), str(records / "diagonal.lgn"))
    assert imported.exit_code == 0, imported.output
    assert "added 2 records (1 invalid" in imported.output
    found = run("query", "--db", db, "--game", "slide", "--format", "json")
    rows = json.loads(found.output)
    assert [(row["white"], row["valid"], row["first_rule"]) for row in rows] == [("Ann", 1, None), ("Bob", 0, "Z1")]
    reached = run("query", "--db", db, "--position", "Ppp/.../..P b", "--format", "json")
    assert [(row["white"], row["ply"]) for row in json.loads(reached.output)] == [("Ann", 3)]
    tree = run("tree", "--db", db, "p.p/.../P.P w")
    assert tree.exit_code == 0 and tree.output.splitlines()[2].split()[:3] == ["a1-a2", "2", "100.0"]
    (records / "mirrored.lgn").write_text(MIRRORED)
    assert run("import", "--db", db, str(records / "mirrored.lgn")).exit_code == 0
    plain = json.loads(run("tree", "--db", db, "p.p/.../P.P w", "--format", "json").output)
    folded = json.loads(run("tree", "--db", db, "p.p/.../P.P w", "--format", "json", "--symmetric").output)
    assert [(node["ply"], node["games"]) for node in plain] == [("a1-a2", 2), ("c1-c2", 1)]
    assert [(node["ply"], node["games"]) for node in folded] == [("a1-a2", 3)]  # its 3×3 board is square
    ended = run("query", "--db", db, "--ending", "far rank", "--format", "json")  # the game's own words
    assert [row["white"] for row in json.loads(ended.output)] == ["Ann", "Cid"]


def test_explain_asks_a_registered_game_for_its_variants_even_without_options_or_texts(slide):
    assert run("explain", "slide").output.splitlines()[2:] == [
        "Variants (the Variant tag, the default first; explain slide/VARIANT says more):",
        "  seed  slide (seed)",
        "",
        "rules: none written (lusoria explain knows none of its rules)",
        "options (the Rules tag): none",
    ]
    explained = run("explain", "slide/seed").output
    assert explained.startswith('seed: slide (seed)\ngame: slide; its tags: [Game "slide"] [Variant "seed"]\n')
    assert (
        "\nSettings (a Rules tag's key=value; then the key: what it decides, and the rules it governs):\n  none: "
        in explained
    )


class Failing(Slide):
    """Slide, whose rules fail at the hook a test names (a plug-in's bug)."""

    failing = ""

    def initial(self):
        return self._failed("initial") or super().initial()

    def play(self, position, text):
        return self._failed("play") or super().play(position, text)

    def outcome(self, position):
        return self._failed("outcome") or super().outcome(position)

    def material(self, position):
        return self._failed("material") or super().material(position)

    @classmethod
    def from_tags(cls, tags):
        return cls._failed("from_tags") or super().from_tags(tags)

    @classmethod
    def _failed(cls, hook):
        if cls.failing == hook:
            raise KeyError(hook)


RAISED_AT = f"{__file__}:{Failing._failed.__code__.co_firstlineno + 3}"  # the line of its raise


class Exiting(Failing):
    """Slide, whose rules call sys.exit(5) at the hook a test names."""

    @classmethod
    def _failed(cls, hook):
        if cls.failing == hook:
            sys.exit(5)


EXITED_AT = f"{__file__}:{Exiting._failed.__code__.co_firstlineno + 3}"  # the line of its sys.exit


class Unread(Failing):
    """Slide, whose rules open a file of theirs that is missing at the hook a test names."""

    @classmethod
    def _failed(cls, hook):
        if cls.failing == hook:
            open("/no such folder/slide.json")


OPENED_AT = f"{__file__}:{Unread._failed.__code__.co_firstlineno + 3}"  # the line of its open


@pytest.fixture
def failing():
    """Registers Slide failing at the hook the test names (raising, or calling sys.exit: `Exiting`), for one test."""
    yield lambda hook, how=Failing: register(type(how.__name__, (how,), {"failing": hook}))
    GAMES.unregister("slide")


@pytest.mark.parametrize("hook", ["initial", "play", "outcome", "from_tags"])
def test_a_plug_in_game_that_fails_is_an_error_naming_it_and_the_other_records_are_checked(records, failing, hook):
    failing(hook)
    done = run("validate", "--jobs", "1", str(records / "won.lgn"), str(ROOT / "samples" / "tablut" / "escape.lgn"))
    assert done.exit_code == 1 and "internal error" not in done.output, done.output
    said = f"the slide game failed: {__name__}.Failing.{hook} raised KeyError: '{hook}' ({RAISED_AT})"
    assert f"won.lgn:1:1: error[plug-in]: {said}\n" in done.output
    assert "2 records: 1 valid, 1 invalid (1 error, 0 warnings)\n" in done.output


class Hungry(Slide):
    """Slide, whose play runs out of memory."""

    def play(self, position, text):
        raise MemoryError


def test_a_plug_in_game_out_of_memory_stops_the_command_as_any_input_too_large_does(records):
    register(Hungry)
    try:
        done = run("validate", "--jobs", "1", str(records / "won.lgn"))
    finally:
        GAMES.unregister("slide")
    too_large = f"lusoria: the input is too large for the memory available (while checking {records / 'won.lgn'}:1)\n"
    assert (done.exit_code, done.output) == (2, too_large)


def test_a_plug_in_game_that_fails_outside_a_check_is_said_naming_it(records, failing):
    failing("material")  # which `show` asks for after the check: no record's error can say it, the command ends
    done = run("show", str(records / "won.lgn"))
    assert done.exit_code == 2 and "internal error" not in done.output, done.output
    said = f"the slide game failed: {__name__}.Failing.material raised KeyError: 'material' ({RAISED_AT})"
    assert done.output == f"lusoria: {said}\n"


def test_a_plug_in_game_that_calls_sys_exit_fails_as_one_that_raises(records, failing):
    """Its SystemExit ended the command with status 5, and no line named the game."""
    failing("play", Exiting)
    done = run("validate", "--jobs", "1", str(records / "won.lgn"), str(ROOT / "samples" / "tablut" / "escape.lgn"))
    said = f"the slide game failed: {__name__}.Failing.play raised SystemExit: 5 ({EXITED_AT})"
    assert done.exit_code == 1 and f"won.lgn:1:1: error[plug-in]: {said}\n" in done.output, done.output
    assert "2 records: 1 valid, 1 invalid (1 error, 0 warnings)\n" in done.output


@pytest.mark.parametrize("debug", [[], ["--debug"]])
def test_a_plug_in_games_sys_exit_outside_a_check_ends_the_command_naming_it(records, failing, debug):
    """`show` asks for its material after the check: the command ends, said as a raise is, and
    with --debug the traceback follows (a SystemExit let through shows none)."""
    failing("material", Exiting)
    done = run(*debug, "show", str(records / "won.lgn"))
    said = f"lusoria: the slide game failed: {__name__}.Failing.material raised SystemExit: 5 ({EXITED_AT})\n"
    assert done.exit_code == 2 and done.stdout == "", done.output
    traced = "Traceback (most recent call last):\n" if debug else ""
    assert done.stderr.startswith(said + traced) and done.stderr.endswith("SystemExit: 5\n" if debug else said)


@pytest.mark.parametrize(
    ("cell", "grammar", "error"),
    [
        (
            "class Played(Slide):\n    name = 'played'\n    grammar = GRAMMAR\n\n    def play(self, position, text):\n"
            "        raise KeyError('played')\n",
            "",
            "__main__.Played.play raised KeyError: 'played' (<cell 3>:6)",
        ),
        (  # no function of its own, no base but lusoria's: no file to tell it by
            "class Unbuilt(Tablut):\n    name = 'unbuilt'\n    grammar = GRAMMAR\n",
            "PLY: SQUARE (\n",
            "its grammar {file}:1:14: GrammarError: Expecting a value PLY: SQUARE ( ^",
        ),
    ],
    ids=["play", "grammar"],
)
def test_a_game_of_a_module_without_a_file_that_fails_is_said_naming_it(tmp_path, monkeypatch, cell, grammar, error):
    """A class of a notebook's cell (its module `__main__` has no `__file__`), or of a text exec ran:
    its failure, where no file of its module was found in the traceback, was said as lusoria's bug
    ("internal error", status 3). Its functions' file (`<cell 3>`) tells it, or, for its grammar, its
    being no class of lusoria's. (A game of its own name: the parsers are kept by name.)"""
    file = tmp_path / "cell.lark"
    file.write_text(grammar or Slide.grammar.read_text())
    notebook = types.ModuleType("__main__")  # a notebook's: no __file__
    monkeypatch.setitem(sys.modules, "__main__", notebook)
    notebook.Slide, notebook.Tablut, notebook.GRAMMAR = Slide, game_class("tablut"), file
    exec(compile(cell, "<cell 3>", "exec"), vars(notebook))
    game = register(next(value for value in vars(notebook).values() if getattr(value, "__module__", "") == "__main__"))
    (tmp_path / "won.lgn").write_text(WON.replace("Slide", game.name))
    try:
        done = run("validate", "--jobs", "1", str(tmp_path / "won.lgn"))
    finally:
        GAMES.unregister(game.name)
    said = f"the {game.name} game failed: {error.format(file=file)}"
    assert done.exit_code == 1 and f"won.lgn:1:1: error[plug-in]: {said}\n" in done.output, done.output


def test_a_dataclass_game_is_not_said_to_fail_where_another_dataclass_raises():
    """A game's class of a module with a file, made a dataclass: its functions that the dataclass
    wrote are of `<string>` (or of dataclasses.py), as every dataclass's are; lusoria's own
    dataclass raising there was said to be the game's failure."""
    frozen = type("Frozen", (Slide,), {"name": "frozen", "__module__": Slide.__module__})  # (not this file's)
    game = register(dataclass(frozen=True)(frozen))
    try:
        file = CanonicalFile("f.lgn", "lgn", b"", b"", [])
        with pytest.raises(FrozenInstanceError) as raised:
            file.format = "otn"  # lusoria's frozen dataclass: its __setattr__, of <string>, raises
        assert game.__init__.__code__.co_filename == "<string>"
        assert GAMES.failed_plug_in(raised.value) is None
    finally:
        GAMES.unregister("frozen")


class Unwritten(Slide):
    """Slide, whose positions cannot be written: the method Slide.render, of another module, calls."""

    def format_position(self, position):
        raise KeyError("format_position")


def test_a_plug_in_game_that_fails_in_a_method_an_inherited_one_calls_is_said_with_the_line_that_raised(records):
    """It said the line of the inherited method's call (toy_game.py), not the raise: the line was
    looked for in the files of the module of the method lusoria called alone."""
    register(Unwritten)
    try:
        done = run("show", str(records / "won.lgn"))
    finally:
        GAMES.unregister("slide")
    line = Unwritten.format_position.__code__.co_firstlineno + 1
    said = f"toy_game.Slide.render raised KeyError: 'format_position' ({__file__}:{line})"
    assert (done.exit_code, done.output) == (2, f"lusoria: the slide game failed: {said}\n")


def test_a_plug_in_game_that_fails_is_told_apart_from_another_game_of_its_files(records, failing):
    """Two games of one module (or one base): the first registered whose files the traceback ran
    was named, with its function, for the other's failure."""
    register(type("Bystander", (Slide,), {"name": "bystander"}))
    failing("play")
    try:
        done = run("validate", "--jobs", "1", str(records / "won.lgn"))
    finally:
        GAMES.unregister("bystander")
    said = f"the slide game failed: {__name__}.Failing.play raised KeyError: 'play' ({RAISED_AT})"
    assert f"won.lgn:1:1: error[plug-in]: {said}\n" in done.output, done.output


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    ("how", "error"),
    [
        (Failing, f"KeyError: 'material' ({RAISED_AT})"),
        (Exiting, f"SystemExit: 5 ({EXITED_AT})"),
        (Unread, f"FileNotFoundError: [Errno 2] No such file or directory: '/no such folder/slide.json' ({OPENED_AT})"),
    ],
)
def test_a_plug_in_game_that_fails_on_a_records_rows_is_said_naming_it_and_the_others_are_stored(
    records, failing, monkeypatch, jobs, how, error
):
    """`import` asks a game more than a check does (its material, for a record's rows), in a worker
    process too: a plug-in's failing there was said as lusoria's bug ("internal error", status 3);
    its sys.exit() ended the command with its status (in a worker process, the worker); its OSError
    stopped the import as the archive failing would, no record stored."""
    failing("material", how)
    monkeypatch.setattr("lusoria.workers.CHUNK", 100)  # a chunk a record: with --jobs 2, workers take them
    db, won = records / "a.db", records / "won.lgn"
    escape = ROOT / "samples" / "tablut" / "escape.lgn"
    done = CliRunner().invoke(main, ["import", "--db", str(db), "--jobs", jobs, "--force-jobs", str(won), str(escape)])
    said = f"the slide game failed: {__name__}.Failing.material raised {error}"
    assert done.stderr == f"lusoria: {won}:1: {said}; the record was not stored\n"
    assert (
        done.stdout
        == f"{db}: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates, 1 record failed\n"
    )
    assert done.exit_code == 2


@pytest.mark.parametrize(
    ("how", "error"), [(Failing, f"KeyError: 'material' ({RAISED_AT})"), (Exiting, f"SystemExit: 5 ({EXITED_AT})")]
)
def test_a_plug_in_games_failure_in_an_export_worker_is_said_naming_it(records, failing, how, error):
    """`export` replays each record in a worker process, whose error came without its traceback: a
    plug-in game's failure there was lusoria's bug (status 3), its sys.exit() the worker killed "perhaps
    for want of memory". The first record, of another game, is replayed here; the slide ones (long
    comments: more than one chunk) by the workers."""
    db, long = records / "a.db", records / "long.lgn"
    games = (WON.replace("Ann", f"Ann {n}").replace("1-0", f"{{{'a comment ' * 4_000}}} 1-0") for n in range(3))
    long.write_text("\n".join(games))
    register(Slide)
    try:
        imported = run("import", "--db", str(db), str(ROOT / "samples" / "tablut" / "escape.lgn"), str(long))
    finally:
        GAMES.unregister("slide")
    assert imported.exit_code == 0, imported.output
    failing("material", how)
    done = run("export", "--db", str(db), "--jobs", "2", "--force-jobs", str(records / "out"))
    said = f"the slide game failed: {__name__}.Failing.material raised {error}"
    assert done.exit_code == 2 and done.output.startswith(f"lusoria: {said} (while checking "), done.output


class Picky(Slide):
    """Slide with an option whose rules fail (raising, or calling sys.exit: `exits`): the one a
    check does not play, which `lusoria rules` tries."""

    options = {"odd": ("no", "yes")}
    presets = {"seed": {"odd": "no"}}
    exits = False

    def play(self, position, text):
        if self.option.get("odd") == "yes":
            if self.exits:
                sys.exit(5)
            raise KeyError("odd")
        return super().play(position, text)


@pytest.mark.parametrize("exits", [False, True])
def test_a_plug_in_games_failure_in_a_rules_worker_is_said_naming_it(tmp_path, exits):
    """`rules` searches other rule sets in a worker process, whose error came without its
    traceback: a plug-in game's failure under one was lusoria's bug (status 3), its sys.exit() the
    worker killed "perhaps for want of memory". The valid records, first, are fitted here."""
    (tmp_path / "some.lgn").write_text("\n".join([WON] * 3 + [DIAGONAL]))
    register(type("Picky", (Picky,), {"exits": exits}))
    try:
        done = run("rules", "--jobs", "2", "--force-jobs", str(tmp_path / "some.lgn"))
    finally:
        GAMES.unregister("slide")
    error = "SystemExit: 5" if exits else "KeyError: 'odd'"
    said = f"lusoria: the slide game failed: {__name__}.Picky.play raised {error} ("
    assert (
        done.exit_code == 2 and said in done.output and f"(while checking {tmp_path / 'some.lgn'}:16)\n" in done.output
    )


@pytest.mark.parametrize(
    ("grammar", "error"),
    [
        ("start: nothing_defined\n", ": GrammarError: Terminal used but not defined: PLY"),
        (None, ": FileNotFoundError: [Errno 2] No such file or directory: 'no such folder/unbuilt.lark'"),
        ('// a ply\n\nPLY: SQUARE (\nSQUARE: "a1"\n', ":3:14: GrammarError: Expecting a value PLY: SQUARE ( ^"),
        ('PLY: "a1" $\n', ':1:11: GrammarError: Unexpected input: PLY: "a1" $ ^'),
    ],
)
def test_a_plug_in_game_whose_grammar_cannot_be_built_is_an_error_naming_it(tmp_path, grammar, error):
    """Lark raises there, or reading the file does, not the plug-in's code: it was said as lusoria's
    bug ("internal error", status 3). A syntax error is placed in the plug-in's file: lark places it
    in the text it was given, the file after common.lark, and it was said 38 lines too far down ("at
    line 41 column 14" for line 3). (A game of its own name: the parsers are kept by name.)"""
    file = tmp_path / "unbuilt.lark" if grammar else Path("no such folder/unbuilt.lark")
    if grammar:
        file.write_text(grammar)
    register(type("Unbuilt", (Slide,), {"name": "unbuilt", "grammar": file}))
    (tmp_path / "won.lgn").write_text(WON.replace("Slide", "Unbuilt"))
    try:
        done = run("validate", "--jobs", "1", str(tmp_path / "won.lgn"))
    finally:
        GAMES.unregister("unbuilt")
    said = f"the unbuilt game failed: its grammar {file}{error}"
    assert done.exit_code == 1 and f"won.lgn:1:1: error[plug-in]: {said}\n" in done.output, done.output


@pytest.mark.parametrize(("game", "variant"), [("tablut", "copenhagen"), ("hnefatafl", "Brandubh")])
def test_a_games_name_given_as_another_games_variant_is_said_to_name_a_game(game, variant):
    """The registry's own test of what `_with_owners` adds (session 48's run: its return made None, and
    `game_named`'s `in GAMES` made `not in`, survived this file; the commands' tests saw them)."""
    from lusoria.validator.base import OptionError
    from lusoria.validator.games import rules_from_tags

    named = variant.lower()
    with pytest.raises(OptionError) as raised:
        rules_from_tags(GAMES[game], {"Game": game, "Variant": variant})
    assert str(raised.value).endswith(
        f'; {named} is a game, not a variant: name it as the game ([Game "{named}"], --game {named})'
    )
    assert raised.value.tag == "Variant"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("tablut/linnaeus", "; tablut/linnaeus is a variant, not a game: --game tablut --variant linnaeus"),
        (
            "Tablut/Saami-Tablut-W",
            "; Tablut/Saami-Tablut-W is a variant, not a game: --game tablut --variant aage --rules first=white",
        ),
        ("copenhagen/linnaeus", ""),  # (tablut's, not copenhagen's)
        ("hnefatafl/saami-tablut-w", ""),
    ],
)
def test_a_variant_named_with_its_game_as_explain_takes_it_is_said_only_of_that_game(name, said):
    """`game/variant` given as a game's name (`lusoria explain tablut/linnaeus`): the options of that game's
    entry, none of another game's (session 49's run: `_entry_tags`' `tags["Game"] == owner` made `!=`
    survived this file; `test_cli`'s commands saw it)."""
    from lusoria.validator.games import options_line, variant_as_game

    assert variant_as_game(name, options_line) == said
