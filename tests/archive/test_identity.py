"""A record's identity, `lusoria duplicates`, and the upgrade of version 1 archives (docs/archive.md)."""

import re
import shutil
import unicodedata
from contextlib import closing

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect

from lusoria.api import duplicates, format_record
from lusoria.archive import Archive, schema
from lusoria.archive.duplicates import Duplicate, Entry, Place, find_duplicates
from lusoria.archive.identity import Identity, identity, label
from lusoria.cli import main
from lusoria.validator import tablut
from lusoria.validator.replay import check

FIXTURES = ROOT / "tests" / "fixtures"
ESCAPE = (ROOT / "samples/tablut/escape.lgn").read_text()


def key(text: str) -> str:
    return identity(check(text)).key


def test_a_record_its_canonical_form_and_a_bare_copy_are_the_same_game():
    canonical, _ = format_record(ESCAPE)
    bare = (FIXTURES / "resubmitted.lgn").read_text().split("\n\n[Game")[1]
    assert "1. " not in bare and canonical != ESCAPE
    assert key(ESCAPE) == key(canonical) == key("[Game" + bare)


@pytest.mark.parametrize(
    "old, new",
    [
        ('[Game "tablut"]', '[Game "Tablut"]\n[Variant "seed"]'),  # the default variant, named
        ('[Game "tablut"]', '[Game "tablut"]\n[Rules "king-armed=yes"]'),  # an option at its default
        ('[Game "tablut"]', f'[Game "tablut"]\n[Position "{tablut.INITIAL}"]'),  # the start, written (h81c)
        ('[White "Karin Nilsson"]', '[White "Karin   Nilsson"]'),
        ('[Annotator "lusoria samples"]\n', ""),
        ("4. Ke5-c5+", "4. Ke5-c5"),
        ("Kc5-c1++", "Kc5-c1"),  # announcements
        ("b5-b9?", "b5-b9 $2"),
        ("b5-b9?", "b5-b9"),
        ("( 4... d1-c1 { closes the line: the king has no open line left } 5. c7-c8 )", ""),
        ("{ The king escapes along the c-file after Black ignores the Raichi. }", ""),
    ],
)
def test_what_takes_no_part_in_the_identity(old, new):
    assert old in ESCAPE
    assert key(ESCAPE.replace(old, new)) == key(ESCAPE)


DUX_ENDED = '[Game "latrunculi"]\n[Variant "dux"]\n[Position "7d/8/8/8/1Pp5/8/8/D2P2PP w"]\n[Result "1-0"]\n\n1. d1-d4xc4{} 1-0\n'


def test_the_mark_of_a_game_ending_latrunculi_ply_takes_no_part_in_the_identity():
    """h80a: `1. d1-d4xc4#` and `1. d1-d4xc4`, the dux captured, were two games (the archive kept both, and
    `duplicates` said none), where NOTATION.md calls `#` a suffix: it takes no part, as Tablut's `+` does not."""
    marked, bare = DUX_ENDED.format("#"), DUX_ENDED.format("")
    assert check(marked).valid and check(bare).valid
    assert key(marked) == key(bare)


def test_the_game_says_what_takes_no_part_also_when_the_rules_cannot_be_read():
    """Game.ply_identity of the record's game, not of its rules: an unknown variant's announcements take no part."""
    unknown = ESCAPE.replace('[Game "tablut"]', '[Game "tablut"]\n[Variant "nowhere"]')
    assert check(unknown).rules is None
    assert key(unknown.replace("4. Ke5-c5+", "4. Ke5-c5")) == key(unknown) != key(ESCAPE)


@pytest.mark.parametrize(
    "tag, default",
    [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"), ("White", "?"), ("Black", "?")],
)
def test_a_missing_tag_of_the_seven_tag_roster_is_its_default(tag, default):
    """docs/archive.md: `[Date "????.??.??"]` and no Date are one game; so for the other tags and `?`."""
    written = re.search(rf'\[{tag} "[^"]*"\]\n', ESCAPE)[0]
    missing, unknown = ESCAPE.replace(written, ""), ESCAPE.replace(written, f'[{tag} "{default}"]\n')
    assert key(missing) == key(unknown) != key(ESCAPE)
    assert key(missing) != key(ESCAPE.replace(written, f'[{tag} "{default}?"]\n'))


@pytest.mark.parametrize(
    "old, new",
    [
        ('[Round "1"]', '[Round "2"]'),
        ('[White "Karin Nilsson"]', '[White "Olof Berg"]'),
        ('[Date "2026.11.21"]', '[Date "2026.11.22"]'),
        ('[Site "Uppsala"]', ""),
        ('[Game "tablut"]', '[Game "tablut"]\n[Rules "king-armed=no"]'),
        ('[Result "1-0"]', '[Result "*"]'),
        ("++ { the king reaches the edge (T6) } 1-0", " *"),
        ("i4-h4", "i4-g4"),
    ],
)
def test_what_makes_another_game(old, new):
    assert old in ESCAPE
    assert key(ESCAPE.replace(old, new)) != key(ESCAPE)


def test_a_record_that_does_not_parse_is_its_text_with_white_space_folded():
    broken = '[Game "tablut"]\n\n1. e3-c3 @@ *\n'
    found = identity(check(broken))
    assert found.setting is None and found.plies == ()
    assert key('[Game "tablut"]\n1.   e3-c3\t@@ *') == found.key != key('[Game "tablut"]\n1. e3-c3 @ *')


def test_a_name_written_with_combining_marks_is_the_name_typed(tmp_path):
    """A roster written with combining marks (NFD, as some Mac files write names) is the same game as one
    typed (NFC): in files, in an import, and as an alias of a player (`duplicates --db`); so is the text of a
    record that does not parse."""
    typed = ESCAPE.replace("Olof Berg", "Åsa Ström")
    marked = unicodedata.normalize("NFD", typed)
    assert marked != typed and key(marked) == key(typed) != key(ESCAPE)
    broken = '[Game "tablut"]\n[White "Åsa Ström"]\n\n1. e3-c3 @@ *\n'
    assert key(unicodedata.normalize("NFD", broken)) == key(broken)
    files = {
        "typed.lgn": typed,
        "marked.lgn": marked,
        "alias.lgn": unicodedata.normalize("NFD", typed.replace("Karin Nilsson", "Kåre Nilsson")),
    }
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    assert [str(d) for d in duplicates(paths)] == [f"{paths[1]}:1: the same game as {paths[0]}:1"]
    archive = Archive(str(tmp_path / "club.db"))
    summary = archive.import_paths(paths)
    assert (summary.added, summary.duplicates) == (2, 1)
    assert archive.duplicates() == []
    archive.merge_players(["Kåre Nilsson"], "Karin Nilsson")  # (typed: the record writes it with marks)
    assert [str(d) for d in archive.duplicates()] == [
        f"record 2 ({paths[2]}:1): the same game as record 1 ({paths[0]}:1)"
    ]


def test_a_label_names_the_players_and_a_known_date():
    assert (
        label({"White": "Karin Nilsson", "Black": "Olof Berg", "Date": "2026.11.21"})
        == "Karin Nilsson – Olof Berg, 2026.11.21"
    )
    assert label({"White": "Karin Nilsson", "Date": "2026.??.??"}) == "Karin Nilsson – ?, 2026.??.??"
    assert label({"Date": "????.??.??"}) == label({}) == "? – ?"


def entry(where: str, plies: str, key_: str | None = None, setting: str = "s") -> Entry:
    return Entry(where, Place(where, 1), Identity(key_ or where, setting, tuple(plies.split())))


def test_same_games_then_prefixes_each_against_the_next_longer_line():
    entries = [
        entry("long", "a b c d"),
        entry("short", "a b"),
        entry("again", "a b", key_="short"),
        entry("other result", "a b"),
        entry("middle", "a b c"),
        entry("branch", "a b x y"),
        entry("elsewhere", "a", setting="t"),
        entry("nothing", ""),
    ]
    assert [str(d) for d in find_duplicates(entries)] == [
        "again: the same game as short",
        "short: a prefix of middle (2 of 3 plies)",
        "other result: a prefix of middle (2 of 3 plies)",
        "middle: a prefix of long (3 of 4 plies)",
        "nothing: a prefix of short (0 of 2 plies)",
    ]
    # a library caller reads them too: a prefix's plies and the longer record's; a same game's none
    assert [d.plies for d in find_duplicates(entries)] == [(0, 0), (2, 3), (2, 3), (3, 4), (0, 2)]
    assert [(d.record_place.path, d.of_place.path) for d in find_duplicates(entries)][:2] == [  # (h72c: where each is)
        ("again", "short"),
        ("short", "middle"),
    ]


def test_a_finished_game_is_a_prefix_only_of_a_longer_line_that_ends_so():
    """aagenielsen.dk: Hagbard – crust 0-1 after 0 plies was 'a prefix of' their draw of 120 plies;
    a game ended (1-0, 0-1, a draw) is a prefix only of one that ends so too, an unfinished one (*) of
    any. Each record was then compared with the first record of the next longer line only: a loss
    before any ply was no prefix of a loss further on when an unfinished line and a draw came between,
    nor a loss of the second record of the next line, whose first another game won."""

    def ended(where: str, plies: str, result: str | None) -> Entry:
        return Entry(where, Place(where, 1), Identity(where, "s", tuple(plies.split())), result=result)

    entries = [
        ended("drawn", "a b c", "1/2-1/2"),
        ended("lost at once", "", "0-1"),
        ended("drawn unfinished", "a", "*"),
        ended("drawn early", "a b", "1/2-1/2"),
        ended("lost later", "a b", "0-1"),
        ended("result unknown", "x y", None),  # (as an unfinished one)
        ended("won", "x y z", "1-0"),
        ended("short loss", "m", "0-1"),
        ended("won at once", "m n", "1-0"),
        ended("lost too", "m n", "0-1"),
    ]
    assert [str(d) for d in find_duplicates(entries)] == [
        "lost at once: a prefix of lost later (0 of 2 plies)",
        "drawn unfinished: a prefix of drawn early (1 of 2 plies)",
        "drawn early: a prefix of drawn (2 of 3 plies)",
        "result unknown: a prefix of won (2 of 3 plies)",
        "short loss: a prefix of lost too (1 of 2 plies)",
    ]


def test_a_game_that_ended_otherwise_in_the_same_result_is_no_prefix():
    """A resignation after 2 plies is another game than a king captured after 3 in the same result,
    and a timeout after 1 ply than a timeout after 2; a result that no ply or tag explains
    (`unknown`: a transcription cut short) is a prefix, as an unfinished line is of any."""

    def ended(where: str, plies: str, result: str, ending: str | None) -> Entry:
        return Entry(where, Place(where, 1), Identity(where, "s", tuple(plies.split())), result=result, ending=ending)

    entries = [
        ended("captured", "a b c", "0-1", "king captured"),
        ended("resigned", "a b", "0-1", "resigned"),
        ended("cut short", "a b", "0-1", "unknown"),
        ended("timeout", "x", "1-0", "timeout"),
        ended("timeout later", "x y", "1-0", "timeout"),
        ended("unfinished", "x", "*", "unfinished"),
    ]
    assert [str(d) for d in find_duplicates(entries)] == [
        "cut short: a prefix of captured (2 of 3 plies)",
        "unfinished: a prefix of timeout later (1 of 2 plies)",
    ]


def test_the_plies_are_loaded_only_for_settings_shared_by_several_records():
    asked = []

    def load(group):
        asked.append([e.where for e in group])
        return [entry(e.where, "a b" if e.where == "one" else "a b c") for e in group]

    entries = [entry("one", ""), entry("two", ""), entry("alone", "", setting="t")]
    assert list(find_duplicates(entries, load)) == [
        Duplicate("prefix", "one", "two", Place("one", 1), Place("two", 1), (2, 3))
    ]
    assert asked == [["one", "two"]]


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_duplicates_of_files(in_root):
    result = run("duplicates", "samples/tablut", "tests/fixtures/resubmitted.lgn")
    assert result.exit_code == 1
    assert result.output == (
        "tests/fixtures/resubmitted.lgn:1: the same game as samples/tablut/escape.lgn:1\n"
        "tests/fixtures/resubmitted.lgn:16: the same game as samples/tablut/escape.lgn:1\n"
        "tests/fixtures/resubmitted.lgn:27: a prefix of samples/tablut/escape.lgn:1 (6 of 9 plies)\n"
        "2 duplicates, 1 prefix\n"
    )
    clean = run("duplicates", "samples/tablut")
    assert (clean.exit_code, clean.output) == (0, "0 duplicates, 0 prefixes\n")


def test_duplicates_reads_records_with_no_game_tag_in_the_game_given(tmp_path):
    """A club's move lists with no Game tag: `duplicates` had no --game (validate, rules and import had), so
    it found none among them, and a CSV file whose board fits several games could not be read at all
    (session 52). It reads them as `validate` does, by its worker processes or one; `--db` reads none."""
    for name, movetext in (("a", "1. e3-c3 e1-e3 *"), ("b", "1. e3-c3 e1-e3 *"), ("c", "1. e3-c3 *")):
        (tmp_path / f"{name}.lgn").write_text(movetext + "\n")
    a, b, c = (str(tmp_path / f"{name}.lgn") for name in "abc")
    found = f"{b}:1: the same game as {a}:1\n{c}:1: a prefix of {a}:1 (1 of 2 plies)\n1 duplicate, 1 prefix\n"
    for jobs in ([], ["--jobs", "1"]):
        result = run("duplicates", "--game", "tablut", *jobs, a, b, c)
        assert (result.exit_code, result.output) == (1, found)
    unread = run("duplicates", a, b, c)  # (no game: the same text alone is the same record, no prefix is seen)
    assert unread.output == f"{b}:1: the same game as {a}:1\n1 duplicate, 0 prefixes\n"
    assert [str(d) for d in duplicates([a, b], tags={"Game": "tablut"})] == [f"{b}:1: the same game as {a}:1"]
    refused = run("duplicates", "--db", str(tmp_path / "club.db"), "--game", "tablut", "--variant", "linnaeus")
    assert refused.exit_code == 2
    assert refused.stderr.endswith(
        "Error: --game and --variant apply to files read (PATH...), not to an archive (--db), whose records were"
        " read as they were imported\n"
    )
    alone = run("duplicates", "--db", str(tmp_path / "club.db"), "--game", "tablut").stderr
    assert "Error: --game applies to files read (PATH...), not to an archive (--db)" in alone


def test_a_resignation_is_no_prefix_of_the_escape_in_files_nor_in_an_archive(in_root, tmp_path):
    """The ending is read from each record (its Termination tag here) for files and kept in the
    archive: a game resigned after 4 plies is another game than the escape after 9 in its result,
    while 6 of its plies in that result with no ending are an escape cut short."""
    record = '[Game "tablut"]\n[Result "1-0"]\n{}\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 {}1-0\n\n'
    short = tmp_path / "short.lgn"
    short.write_text(record.format('[Termination "Black resigned"]', "") + record.format("", "3. c3-c7 a6-a9 "))
    escape = tmp_path / "escape.lgn"
    escape.write_text(record.format("", "3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1 "))
    files = run("duplicates", str(escape), str(short))
    assert files.output == f"{short}:6: a prefix of {escape}:1 (6 of 9 plies)\n0 duplicates, 1 prefix\n"
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths([str(escape), str(short)])
    assert [str(d) for d in archive.duplicates()] == [
        f"record 3 ({short}:6): a prefix of record 1 ({escape}:1) (6 of 9 plies)"
    ]


def test_duplicates_wants_files_or_an_archive(in_root, tmp_path, monkeypatch):
    monkeypatch.setenv("LUSORIA_DB", str(tmp_path / "club.db"))
    nothing = run("duplicates")
    assert (nothing.exit_code, nothing.output) == (
        2,
        f"lusoria: {tmp_path / 'club.db'} does not exist; create it with lusoria import\n",
    )
    Archive(str(tmp_path / "club.db")).import_paths(["samples/tablut", "tests/fixtures/resubmitted.lgn"])
    default = run("duplicates")
    assert (default.exit_code, default.output.splitlines()[-1]) == (1, "0 duplicates, 1 prefix")
    both = run("duplicates", "samples/tablut", "--db", str(tmp_path / "a.db"))
    assert both.exit_code == 2 and "Error: give files (PATH...) or an archive (--db), not both\n" in both.output
    missing = run("duplicates", "--db", str(tmp_path / "missing.db"))
    assert missing.exit_code == 2 and "does not exist" in missing.output
    unreadable = run("duplicates", "samples/tablut", "nowhere.lgn")
    assert unreadable.exit_code == 2 and "nowhere.lgn: no such file" in unreadable.output


def test_a_reformatted_reimport_adds_nothing(in_root, tmp_path):
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths(["samples/tablut"])
    canonical = tmp_path / "club-canon.lgn"
    canonical.write_text(
        "\n".join(format_record(path.read_text())[0] for path in sorted((ROOT / "samples/tablut").glob("*.lgn")))
    )
    summary = archive.import_paths([str(canonical)])
    assert (summary.added, summary.duplicates) == (0, 4)
    summary = archive.import_paths(["tests/fixtures/resubmitted.lgn"])
    assert (summary.added, summary.duplicates) == (1, 2)
    assert [str(d) for d in archive.duplicates()] == [
        "record 5 (tests/fixtures/resubmitted.lgn:27): a prefix of record 1 (samples/tablut/escape.lgn:1) "
        "(6 of 9 plies)"
    ]
    result = run("duplicates", "--db", archive.path)
    assert result.exit_code == 1 and result.output.endswith("\n0 duplicates, 1 prefix\n")


def test_a_reimport_under_other_rules_adds_the_records_again_and_replace_mends_it(tmp_path):
    """A record's identity holds its rule set, so the records of a file read under other rules (a
    catalogue entry changed by a newer lusoria; here another --rules for a CSV file) are other games:
    a plain import adds them again and `duplicates --db` finds none (review-32a). docs/archive.md
    says so, and that `import --replace` is the way: it holds the file's records as read now."""
    club = str(shutil.copy(FIXTURES / "formats/csv/brandubh.csv", tmp_path / "club.csv"))
    db, read = str(tmp_path / "club.db"), ["--game", "hnefatafl", "--variant", "brandubh-7x7-walker"]
    assert "added 4 records" in run("import", "--db", db, *read, club).output
    again = run("import", "--db", db, *read, "--rules", "tfr=d", club)
    assert "added 4 records" in again.output and "skipped 0 duplicates" in again.output
    found = run("duplicates", "--db", db)
    assert found.exit_code == 0 and found.output.endswith("0 duplicates, 0 prefixes\n")
    run("import", "--db", db, "--replace", *read, "--rules", "tfr=d", club)
    assert rows(db, "SELECT count(*), count(DISTINCT hash) FROM records") == [(4, 4)]
    assert rows(db, "SELECT DISTINCT rule_tags FROM records") == [('{"Rules": "tfr=d"}',)]


def columns_and_indexes(path) -> dict:
    with closing(connect(path)) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'records_fts%' ORDER BY name"
            )
        ]
        return {
            table: (
                conn.execute(f"PRAGMA table_xinfo({table})").fetchall(),
                sorted((index[1], index[2]) for index in conn.execute(f"PRAGMA index_list({table})")),
                "WITHOUT ROWID" in conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [table]).fetchone()[0],
            )
            for table in tables
        }


def rows(path, sql: str) -> list:
    with closing(connect(path)) as conn:
        return conn.execute(sql).fetchall()


def test_a_version_1_archive_is_upgraded_keeping_every_record(in_root, tmp_path):
    old = str(tmp_path / "old.db")
    shutil.copy(FIXTURES / "archive-v1.db", old)
    assert rows(old, "PRAGMA user_version") == [(1,)]
    before = rows(old, "SELECT id, text, path, line FROM records ORDER BY id")
    schema.open_archive(old).close()
    assert rows(old, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(old, "SELECT id, text, path, line FROM records JOIN record_texts USING (id) ORDER BY id") == before

    fresh = str(tmp_path / "fresh.db")  # the same sources, imported by this version
    Archive(fresh).import_paths(
        [
            "samples/tablut",
            "samples/errors/syntax.lgn",
            "samples/errors/tablut-moves.lgn",
            "tests/fixtures/resubmitted.lgn",
        ]
    )
    assert columns_and_indexes(old) == columns_and_indexes(fresh)
    for sql in (
        "SELECT text, hash, setting, label, valid, first_rule FROM records JOIN record_texts USING (id)",
        "SELECT r.text, t.name, t.value FROM tags t JOIN record_texts r ON r.id = t.record_id",
        "SELECT r.text, p.ply, p.position FROM plies p JOIN record_texts r ON r.id = p.record_id",
    ):
        # the old has the two duplicates too; version 1 dropped the `%` lines above a file's first record
        assert {(re.sub(r"\A(?:%[^\n]*\n)+", "", text), *row) for text, *row in rows(fresh, sql)} <= set(
            rows(old, sql)
        ), sql
    assert len(rows(old, "SELECT id FROM records")) == len(rows(fresh, "SELECT id FROM records")) + 2

    # the re-submitted copies of escape.lgn were new records to version 1, and are kept: reported
    assert [str(d) for d in Archive(old).duplicates()] == [
        "record 23 (tests/fixtures/resubmitted.lgn:1): the same game as record 1 (samples/tablut/escape.lgn:1)",
        "record 24 (tests/fixtures/resubmitted.lgn:16): the same game as record 1 (samples/tablut/escape.lgn:1)",
        "record 25 (tests/fixtures/resubmitted.lgn:27): a prefix of record 1 (samples/tablut/escape.lgn:1) "
        "(6 of 9 plies)",
    ]
    assert Archive(old).import_paths(["tests/fixtures/resubmitted.lgn"]).added == 0


def test_an_archive_reports_a_game_entered_under_two_names_of_a_player_once_they_are_merged(tmp_path):
    """`duplicates --db` spells White and Black as the archive's players: an alias as the name it is
    merged into, a name in another case as the player's; files and the import compare names as written."""
    escape, short = ESCAPE, ESCAPE.split("5. Kc5")[0].replace('"1-0"', '"*"') + "*\n"
    files = {
        "a.lgn": escape,
        "b.lgn": escape.replace("Karin Nilsson", "K. Nilsson"),
        "c.lgn": escape.replace("Olof Berg", "OLOF BERG"),
        "d.lgn": short.replace("Karin Nilsson", "K. Nilsson"),
        "e.lgn": escape.replace("Karin Nilsson", "Karin Nilson"),  # another player, never merged
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    archive = Archive(str(tmp_path / "club.db"))
    paths = [str(tmp_path / name) for name in files]
    assert archive.import_paths(paths).duplicates == 0
    where = {n: f"record {n} ({tmp_path / name}:1)" for n, name in enumerate(files, 1)}
    assert [str(d) for d in archive.duplicates()] == [
        f"{where[3]}: the same game as {where[1]}",
        f"{where[4]}: a prefix of {where[2]} (8 of 9 plies)",
    ]
    archive.merge_players(["K. Nilsson"], "Karin Nilsson")
    assert [str(d) for d in archive.duplicates()] == [
        f"{where[2]}: the same game as {where[1]}",
        f"{where[3]}: the same game as {where[1]}",
        f"{where[4]}: a prefix of {where[1]} (8 of 9 plies)",
    ]
    assert [str(d) for d in duplicates(paths)] == [f"{paths[3]}:1: a prefix of {paths[1]}:1 (8 of 9 plies)"]
    archive.unmerge_players(["K. Nilsson"])
    assert len(archive.duplicates()) == 2
