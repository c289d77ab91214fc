"""A user's own catalogue of tafl variants (validator/hnefatafl.py, `users_catalogue`): its entries
read by every command beside lusoria's, in the worker processes too; its errors name the user's
file and the entry's line; a name of lusoria's catalogue refused; no file, lusoria's catalogue alone.
The commands run as a user runs them, in processes of their own, each given its file (conftest
gives every other test an empty one)."""

import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

from lusoria.validator.hnefatafl import (
    CATALOGUE,
    CatalogueError,
    Hnefatafl,
    catalogue,
    catalogues,
    games_names,
    load,
    users_catalogue,
)
from lusoria.validator.replay import check

CLUB = """# our club's house variant

[[variant]]
name = "club-7x7"
title = "Club tafl 7×7"
rules = "dim:7 esc:c atkf:y ka:y ks:w cor:a1,g1,a7,g7 cen:d4 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
"""
GAME = '[Game "hnefatafl"]\n[Variant "club-7x7"]\n\n{ %s }\n1... d7-f7 d5-e5 2... d1-b1 *\n'
WRONG = '[Game "hnefatafl"]\n[Variant "club-7x7"]\n\n1... d7-d5 *\n'  # d6 holds a soldier


def lusoria(tmp_path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`lusoria ARGS` in a process of its own, in `tmp_path`, its environment's variables `env`
    besides this one's (an empty value: the variable unset)."""
    environment = {**os.environ, **env}
    environment = {key: value for key, value in environment.items() if value}
    command = [sys.executable, "-m", "lusoria.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tmp_path)


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2", "--force-jobs"]], ids=["default-jobs", "two-workers"])
def test_an_entry_of_the_users_catalogue_is_a_variant_in_every_worker(tmp_path, jobs):
    """A folder of more records than one worker's chunk (lusoria.workers.CHUNK): the user's variant
    read in the worker processes as in the first, its last record's illegal ply found by its rule."""
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    games = tmp_path / "games"
    games.mkdir()
    for number in range(40):
        (games / f"{number:02}.lgn").write_text(GAME % ("a long evening " * 200), encoding="utf-8")
    (games / "99-wrong.lgn").write_text(WRONG, encoding="utf-8")
    done = lusoria(tmp_path, "validate", *jobs, "games", LUSORIA_CATALOGUE="club.toml")
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        "games/99-wrong.lgn:4:6: error[G3]: move 1, Black: the way is blocked at d6; the rest of this line is not checked",
        " 4 | 1... d7-d5 *",
        "   |      ^^^^^",
        "41 records: 40 valid, 1 invalid (1 error, 0 warnings)",
        "rules cited: G3 (lusoria explain G3 says what a rule means)",
    ]


FIVE = """[[variant]]
name = "club-5x5"
title = "Club tafl 5×5"
rules = "dim:5 esc:c atkf:y tfr:w ka:y ks:w cen: sw:s efe:y start:/1tTTt/tKt2/t2T1/5/1T3/"
"""
CORNER5 = (
    "[result:?]\n[rules:dim:5 name:Copenhagen atkf:n tfr:w cor:a1, cen: sw:s efe:y start:/1tTTt/tKt2/t2T1/5/1T3/]\n\n"
)


def test_a_board_of_no_entrys_size_is_read_once_the_users_catalogue_has_one(tmp_path):
    """OpenTafl's own 5×5 puzzle was refused, "no variant has a board of this size", which named lusoria's sizes
    but not the way to read it (h69a): the message says that an entry of the user's catalogue on that board reads
    it, and where that catalogue is; one given, the record reads."""
    (tmp_path / "corner5.otg").write_text(CORNER5, encoding="utf-8")
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    refused = lusoria(tmp_path, "validate", "corner5.otg", LUSORIA_CATALOGUE="empty.toml")
    assert refused.returncode == 1
    assert refused.stdout.startswith(
        "corner5.otg:2:8: error[tag]: rules entry dim:5: no variant has a board of this size (they are 7×7, 9×9, "
        "11×11, 13×13, 15×15, 17×17, 19×19); an entry of your own catalogue on this board reads it (docs/rules.md, "
        "G1). Your own catalogue: 0 entries, read from "
    )
    (tmp_path / "five.toml").write_text(FIVE, encoding="utf-8")
    read = lusoria(tmp_path, "validate", "corner5.otg", LUSORIA_CATALOGUE="five.toml")
    assert (read.returncode, read.stdout) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_every_command_knows_the_users_entries_and_explain_names_the_file(tmp_path):
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    (tmp_path / "game.lgn").write_text(GAME % "a game", encoding="utf-8")
    club = {"LUSORIA_CATALOGUE": "club.toml"}
    listed = lusoria(tmp_path, "explain", "hnefatafl", **club).stdout.splitlines()
    assert "  club-7x7" in [line[:10] for line in listed]
    assert "Your own catalogue: 1 entry, read from club.toml" in listed
    assert lusoria(tmp_path, "explain", "club-7x7", **club).stdout.startswith("club-7x7: Club tafl 7×7\n")
    assert lusoria(tmp_path, "show", "game.lgn", **club).stdout.startswith(
        "hnefatafl (club-7x7) after ply 3 of 3 (move 2, Black: d1-b1)\n"
    )
    ruled = lusoria(tmp_path, "rules", "game.lgn", **club).stdout
    assert ruled == "game.lgn:1: record 0: legal under its declared rules (club-7x7)\n"
    written = lusoria(tmp_path, "random", "--game", "hnefatafl", "--variant", "club-7x7", "--seed", "1", **club)
    assert '[Variant "club-7x7"]' in written.stdout and written.returncode == 0
    (tmp_path / "moves.txt").write_text("d7-f7 d5-e5 d1-b1\n", encoding="utf-8")  # a move list: no tags
    read = lusoria(tmp_path, "validate", "--game", "hnefatafl", "--variant", "club-7x7", "moves.txt", **club)
    assert read.stdout == "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n"
    assert lusoria(tmp_path, "import", "--db", "a.db", "game.lgn", **club).returncode == 0
    tree = lusoria(tmp_path, "tree", "--db", "a.db", "--game", "hnefatafl", "--variant", "club-7x7", **club)
    assert tree.stdout.splitlines()[2].split()[:2] == ["d7-f7", "1"]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            CLUB.replace("ttTKTtt", "ttTKTt"),
            "club.toml:3: variant 1 (club-7x7): rules: the rank 'ppPKPp' covers 6 squares, not 7",
        ),
        (
            CLUB.replace("club-7x7", "fetlar-hnefatafl-11x11"),
            "club.toml:3: variant 1 (fetlar-hnefatafl-11x11): the name fetlar-hnefatafl-11x11 is given to an "
            "entry of lusoria's catalogue: choose another",
        ),
        (
            CLUB.replace("club-7x7", "fetlar"),
            "club.toml:3: variant 1 (fetlar): the name fetlar is given to copenhagen's variant fetlar: choose another "
            "(fetlar-club, say)",
        ),  # a [Variant "fetlar"] would name either
        (
            CLUB.replace("club-7x7", "copenhagen"),
            "club.toml:3: variant 1 (copenhagen): the name copenhagen is given to the game copenhagen: choose another",
        ),
        (
            CLUB.replace("ttTKTtt", "ttTKTt").replace("[[variant]]", "[[ variant ]]  # ours"),
            "club.toml:3: variant 1 (club-7x7): rules: the rank 'ppPKPp' covers 6 squares, not 7",
        ),  # a header as TOML allows it written: its line found all the same
        (CLUB.replace("[[variant]]", "[[variants]]"), "club.toml: a catalogue holds [[variant]] entries only"),
    ],
    ids=["wrong-entry", "clash", "a-games-variant", "a-game", "header-written-freely", "no-entries"],
)
def test_a_wrong_entry_of_the_users_catalogue_is_theirs_to_mend(tmp_path, text, message):
    (tmp_path / "club.toml").write_text(text, encoding="utf-8")
    (tmp_path / "game.lgn").write_text(GAME % "a game", encoding="utf-8")
    done = lusoria(tmp_path, "validate", "game.lgn", LUSORIA_CATALOGUE="club.toml")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        f"lusoria: {message}. The file is your own catalogue of tafl variants (named by LUSORIA_CATALOGUE), "
        "not a record: mend it\n"
    )


def test_a_wrong_entry_first_read_in_a_worker_process_is_said_as_in_the_first(tmp_path):
    """Records of another game first, which the first process checks and which do not read the
    catalogue: a worker reads it and fails. It said "internal error … RuntimeError: Traceback …
    This is a bug in lusoria": the error's class could not be read back in the first process, its
    module's import having stopped on it."""
    (tmp_path / "club.toml").write_text(CLUB.replace("ttTKTtt", "ttTKTt"), encoding="utf-8")
    games = tmp_path / "games"
    games.mkdir()
    tablut = (ROOT / "samples" / "tablut" / "escape.lgn").read_text(encoding="utf-8")
    for number in range(40):
        (games / f"{number:02}.lgn").write_text(tablut.replace("{ The", "{ " + "The " * 500), encoding="utf-8")
    (games / "99-club.lgn").write_text(GAME % "a game", encoding="utf-8")
    done = lusoria(tmp_path, "validate", "--jobs", "2", "--force-jobs", "games", LUSORIA_CATALOGUE="club.toml")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "lusoria: club.toml:3: variant 1 (club-7x7): rules: the rank 'ppPKPp' covers 6 squares, not 7. "
        "The file is your own catalogue of tafl variants (named by LUSORIA_CATALOGUE), not a record: mend it\n"
    )


def test_a_users_catalogue_named_but_missing_is_said_so(tmp_path):
    done = lusoria(tmp_path, "explain", "hnefatafl", LUSORIA_CATALOGUE="clubb.toml")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr.startswith(
        "lusoria: clubb.toml: cannot be read: no such file or directory. The file is your own"
    )


def test_a_users_catalogue_not_in_utf8_names_the_byte_and_its_line(tmp_path):
    """It said the codec's words ("not TOML: 'utf-8' codec can't decode byte 0x98 in position 2…"),
    unlike a record that is not UTF-8."""
    (tmp_path / "club.toml").write_bytes(b"[[variant]]\n# Club\x98s own\n" + CLUB.encode("utf-8"))
    done = lusoria(tmp_path, "explain", "hnefatafl", LUSORIA_CATALOGUE="club.toml")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "lusoria: club.toml: byte 18 (line 2) is not valid utf-8. The file is your own catalogue "
        "of tafl variants (named by LUSORIA_CATALOGUE), not a record: mend it\n"
    )


def test_the_users_catalogue_is_in_their_settings_folder_by_default(tmp_path, monkeypatch):
    """Without LUSORIA_CATALOGUE, `tafl_variants.toml` in lusoria's folder of the user's settings
    (click.get_app_dir); none there: the same variants and verdicts as lusoria's catalogue alone."""
    home = {"LUSORIA_CATALOGUE": "", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "settings")}
    for key, value in home.items():
        monkeypatch.setenv(key, value)
    path = users_catalogue()
    assert path.parent.is_relative_to(tmp_path) and path.name == "tafl_variants.toml"
    (tmp_path / "game.lgn").write_text(GAME % "a game", encoding="utf-8")
    samples = str(ROOT / "samples" / "tablut")
    alone = lusoria(tmp_path, "explain", "hnefatafl", **home).stdout
    empty = lusoria(tmp_path, "explain", "hnefatafl", LUSORIA_CATALOGUE=os.devnull).stdout
    said = re.compile(r"Your own catalogue: (.*?)\n\n", re.DOTALL)  # (its line wrapped)
    assert said.sub("", alone) == said.sub("", empty)
    assert " ".join(said.search(alone)[1].split()) == f"none (no file {path}, nor LUSORIA_CATALOGUE naming one)"
    assert said.search(empty)[1] == "0 entries, read from /dev/null"
    verdicts = lusoria(tmp_path, "validate", samples, "game.lgn", **home)
    assert verdicts.stdout == lusoria(tmp_path, "validate", samples, "game.lgn", LUSORIA_CATALOGUE=os.devnull).stdout
    assert "unknown variant 'club-7x7' for hnefatafl" in verdicts.stdout
    path.parent.mkdir(parents=True)
    path.write_text(CLUB, encoding="utf-8")
    assert lusoria(tmp_path, "validate", "game.lgn", **home).stdout.startswith("1 record: 1 valid")


def test_the_users_catalogue_is_checked_against_lusorias(tmp_path):
    """lusoria's aagenielsen.dk keys are taken too, and an entry may be another layout of one of its entries."""
    builtin = load(CATALOGUE)
    taken = next(entry for entry in builtin if entry.aagenielsen_ids)
    path = tmp_path / "club.toml"
    path.write_text(CLUB + f"aagenielsen = ['Club tafl']\naagenielsen_ids = [{taken.aagenielsen_ids[0]}]\n")
    with pytest.raises(
        CatalogueError, match=f"aagenielsen type key {taken.aagenielsen_ids[0]} is already {taken.name}'s"
    ):
        load(path, builtin)
    main = next(entry for entry in builtin if entry.rules and not entry.layout_of and "dim:7" in entry.rules)
    start = main.rules.split("start:")[1].split()[0]
    layout = main.rules.replace(start, "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/2t4/")
    path.write_text(
        f"[[variant]]\nname = 'club-layout'\ntitle = 'Club'\nlayout_of = '{main.name}'\nrules = '{layout}'\n"
    )
    assert [entry.name for entry in load(path, builtin)] == ["club-layout"]


def test_a_catalogue_named_after_the_catalogues_were_read_is_said_unread(tmp_path, monkeypatch):
    """New user 24: in a notebook, LUSORIA_CATALOGUE set after a first hnefatafl record was read
    nothing (once a process), unsaid: the variant was 'unknown', and `explain hnefatafl` said '0
    entries, read from' the file named now."""
    assert catalogue() == load(CATALOGUE)  # read, from the suite's empty catalogue
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    monkeypatch.setenv("LUSORIA_CATALOGUE", str(tmp_path / "club.toml"))
    unread = (
        f"LUSORIA_CATALOGUE names {tmp_path}/club.toml now, but this process read your own catalogue once, "
        f"when /dev/null was it: a new process reads {tmp_path}/club.toml"
    )
    report = check(GAME % "a game")
    assert report.diagnostics[0].message.endswith(
        f"({len(Hnefatafl.presets)} known: lusoria explain hnefatafl lists them); {unread}"
    )
    assert Hnefatafl.variants_read_from() == f"Your own catalogue: 0 entries, read from /dev/null; {unread}"
    monkeypatch.setenv("LUSORIA_CATALOGUE", os.devnull)
    assert "LUSORIA_CATALOGUE names" not in check(GAME % "a game").diagnostics[0].message


def test_the_catalogues_read_again_are_read_from_the_file_named_now(tmp_path, monkeypatch):
    """`catalogues.cache_clear()` read the catalogues again, but from the file named when they were
    first read (its path was cached apart): the club's entry was unread, and said so."""
    assert catalogue() == load(CATALOGUE)  # read, from the suite's empty catalogue
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    monkeypatch.setenv("LUSORIA_CATALOGUE", str(tmp_path / "club.toml"))
    catalogues.cache_clear()
    try:
        assert [entry.name for entry in catalogue()[-2:]] == [load(CATALOGUE)[-1].name, "club-7x7"]
        assert Hnefatafl.variants_read_from() == f"Your own catalogue: 1 entry, read from {tmp_path}/club.toml"
    finally:
        monkeypatch.setenv("LUSORIA_CATALOGUE", os.devnull)
        catalogues.cache_clear()


def test_the_names_elsewhere_are_read_again_with_the_catalogues(tmp_path, monkeypatch):
    """`Hnefatafl.names_elsewhere`, asked before and after `catalogues.cache_clear()`, gives the
    OpenTafl name of the club's entry only once its file is read: one cache, cleared together."""
    (tmp_path / "club.toml").write_text(CLUB + 'opentafl = ["Club_Tafl"]\n', encoding="utf-8")
    assert "Club_Tafl#7" not in Hnefatafl.names_elsewhere()
    monkeypatch.setenv("LUSORIA_CATALOGUE", str(tmp_path / "club.toml"))
    catalogues.cache_clear()
    try:
        assert Hnefatafl.names_elsewhere()["Club_Tafl#7"] == {"Game": "hnefatafl", "Variant": "club-7x7"}
    finally:
        monkeypatch.setenv("LUSORIA_CATALOGUE", os.devnull)
        catalogues.cache_clear()
    assert "Club_Tafl#7" not in Hnefatafl.names_elsewhere()


def test_the_suite_reads_no_users_catalogue():
    assert os.environ["LUSORIA_CATALOGUE"] == os.devnull and catalogue() == load(CATALOGUE)


def test_tree_of_a_variant_held_but_unknown_says_it_may_be_a_users(tmp_path):
    """An archive of the club's records, explored without the club's catalogue: --variant names a
    variant lusoria does not know, whose records the archive holds; the error says where the user's
    catalogue was looked for. A variant the archive does not hold gets no such hint."""
    from lusoria.validator.games import GAMES

    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    (tmp_path / "game.lgn").write_text(GAME % "a game", encoding="utf-8")
    assert lusoria(tmp_path, "import", "--db", "a.db", "game.lgn", LUSORIA_CATALOGUE="club.toml").returncode == 0
    known = f"{len(GAMES['hnefatafl'].presets)} known: lusoria explain hnefatafl lists them"
    hint = "a.db holds records of it, perhaps a variant of a user's own catalogue. Your own catalogue: 0 entries"
    for variant, said in [("club-7x7", f"; {hint}, read from none.toml"), ("our-house", "")]:
        options = ["--db", "a.db", "--game", "hnefatafl", "--variant", variant]
        tree = lusoria(tmp_path, "tree", *options, LUSORIA_CATALOGUE="none.toml")
        error = f"Error: Invalid value for --variant: unknown variant '{variant}' for hnefatafl ({known}){said}"
        assert (tree.returncode, tree.stderr.splitlines()[-1]) == (2, error)
    error = f"Error: Invalid value for --variant: unknown variant 'club-7x7' for hnefatafl ({known}); {hint}, read from"
    for chosen in (
        ["--game", "hnefatafl"],
        [],
    ):  # the variant, or the game and variant, of most records: as the explorer
        tree = lusoria(tmp_path, "tree", "--db", "a.db", *chosen, LUSORIA_CATALOGUE="none.toml")  # (they said no hint)
        assert (tree.returncode, tree.stderr.splitlines()[-1]) == (2, f"{error} none.toml")


def test_the_explorer_of_a_variant_held_but_unknown_says_it_may_be_a_users(tmp_path):
    """The same archive served without the club's catalogue: the explorer's page of the variant (the
    one of most records, opened when the URL names none) gives tree's hint (it said the variant
    unknown, no more). A variant lusoria knows, another game's whose records the archive holds
    (saami-tablut, Tablut's aage), gets no such hint."""
    MultiParams = pytest.importorskip(
        "datasette.utils", reason="Datasette is a test extra: pip install -e '.[test]'"
    ).MultiParams

    from lusoria.archive.explorer import answer, page
    from lusoria.validator.games import GAMES

    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    (tmp_path / "game.lgn").write_text(GAME % "a game", encoding="utf-8")
    (tmp_path / "aage.lgn").write_text('[Game "tablut"]\n[Variant "aage"]\n\n1. e3-b3 *\n', encoding="utf-8")
    imported = lusoria(tmp_path, "import", "--db", "a.db", "game.lgn", "aage.lgn", LUSORIA_CATALOGUE="club.toml")
    assert imported.returncode == 0
    db = str(tmp_path / "a.db")
    known = f"{len(GAMES['hnefatafl'].presets)} known: lusoria explain hnefatafl lists them"
    unknown = f"unknown variant 'club-7x7' for hnefatafl ({known})"
    hint = "the archive holds records of it, perhaps a variant of a user's own catalogue. Your own catalogue: 0 entries"
    for params in [{}, {"game": ["hnefatafl"], "variant": ["club-7x7"]}]:
        text, status, _ = answer(lambda: page(db, MultiParams(params), str))
        assert (status, text) == (400, f"{unknown}; {hint}, read from {os.devnull}")
    text, status, _ = answer(lambda: page(db, MultiParams({"game": ["hnefatafl"], "variant": ["our-house"]}), str))
    assert (status, text) == (400, unknown.replace("club-7x7", "our-house"))
    text, status, _ = answer(lambda: page(db, MultiParams({"game": ["hnefatafl"], "variant": ["saami-tablut"]}), str))
    assert (status, text) == (400, "the parameter variant names saami-tablut, a variant of tablut, not of hnefatafl")


def test_the_names_of_lusorias_games_and_of_the_other_games_variants_are_taken(tmp_path):
    """Each game's name, and each variant of a game but this one (whose variants are the catalogues'),
    the first game's when two share it; lusoria's own catalogue takes none of them."""
    taken = games_names()
    assert taken["laquet"] == "the game laquet: choose another"
    assert taken["seed"] == "tablut's variant seed: choose another (seed-club, say)"  # (laquet's too)
    assert "fetlar-hnefatafl-11x11" not in taken and taken["hnefatafl"] == "the game hnefatafl: choose another"
    assert taken["duces"] == "latrunculi's variant dux: choose another (dux-club, say)"  # dux's plural, said dux
    path = tmp_path / "club.toml"
    path.write_text(CLUB.replace("club-7x7", "dux"))
    with pytest.raises(CatalogueError, match=r"\(dux\): the name dux is given to latrunculi's variant dux: choose"):
        load(path, (), taken)
    assert load(CATALOGUE, (), taken)  # (its names clash with no game's)


def test_rules_of_a_club_folder_proposes_its_variant_with_each_change_its_records_need(tmp_path):
    """h72a: a club's records, one legal if tfr=i (a position back a third time, played on) and two
    if ks=s (the king between two attackers, played on), were proposed the club's rules with one of
    the two; both together make every record legal. The club's start is its own, so no variant of
    the catalogue replays its records: only its rules, changed, do; the options of the other variants
    that the two found (each twice, more often than tfr=i) are not the club's to change."""
    club = CLUB.replace("ttTKTtt/3T3/", "tt1KTtt/2T4/")  # (OTN's rows from the first rank: a soldier on c5)
    (tmp_path / "club.toml").write_text(club, encoding="utf-8")
    games = tmp_path / "games"
    games.mkdir()
    tags = '[Game "hnefatafl"]\n[Variant "club-7x7"]\n'
    (games / "a.lgn").write_text(tags + "\n1. d7-f7 c5-c6 2. d1-b1 *\n", encoding="utf-8")
    repeated = "1. d7-f7 c5-c6 2. f7-d7 c6-c5 3. d7-f7 c5-c6 4. f7-d7 c6-c5 5. d7-f7 c5-c6 *"
    (games / "rep.lgn").write_text(f"{tags}\n{repeated}\n", encoding="utf-8")
    for name, position, moves in [("weak", "7/7/3p3/7/7/1pK4/7", "Kc2-c3"), ("weak2", "7/7/3p3/7/7/4Kp1/7", "Ke2-e3")]:
        (games / f"{name}.lgn").write_text(f'{tags}[Position "{position} b"]\n\n1. d5-d2 {moves} *\n', encoding="utf-8")
    done = lusoria(tmp_path, "rules", "games", LUSORIA_CATALOGUE="club.toml")
    weak = (
        "legal if ks=s; or if ks=m; or under variant opentafl-magpie-7x7; or under variant brandubh-ohio-weak-7x7; "
        "or under variant magpie-7x7; or 8 more"
    )
    assert done.stdout.splitlines()[1:] == [
        "games/rep.lgn:1: record 0: legal if tfr=i",
        f"games/weak.lgn:1: record 0: {weak}",
        f"games/weak2.lgn:1: record 0: {weak}",
        "proposed: hnefatafl (records of variant club-7x7): variant club-7x7 with tfr=i ks=s makes 4 of the 4 "
        "records legal (1 is legal under their own rules)",
    ]


def test_a_settings_folder_that_cannot_be_searched_holds_no_catalogue(tmp_path, monkeypatch):
    """h72b: `sudo -u clubuser lusoria …` keeping HOME=/root, whose settings folder the user may not
    search: `Path.exists` raised PermissionError, and every tafl file was an internal error (exit 3)."""
    monkeypatch.setenv("LUSORIA_CATALOGUE", "")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "settings"))
    hidden, stat = str(users_catalogue()), os.stat

    def refused(path, *args, **kwargs):
        if os.fspath(path) == hidden:
            raise PermissionError(13, "Permission denied", hidden)
        return stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refused)
    catalogues.cache_clear()
    try:
        assert catalogues().users == ()
        assert Hnefatafl.variants_read_from().startswith("Your own catalogue: none")  # (`explain hnefatafl`)
    finally:
        monkeypatch.undo()
        catalogues.cache_clear()
