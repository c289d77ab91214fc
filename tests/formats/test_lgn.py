"""A record read from another format, written in lusoria's notation (formats/lgn.py): by `convert`,
`fmt` and into the archive's text (`query --format lgn`), with the tags of its source."""

import shutil

from click.testing import CliRunner
from conftest import ROOT, built_in_formats

from lusoria import api
from lusoria.cli import main
from lusoria.formats import FORMATS, read_text
from lusoria.formats.lgn import place_tags
from lusoria.notation.reader import parse_record, scan_tags, split_records
from lusoria.validator.replay import check

FIXTURES = ROOT / "tests" / "fixtures" / "formats"


def run(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def sources(text: str, tags=("SourceFormat", "SourceFile", "SourceRecord")) -> list[tuple[str | None, ...]]:
    return [tuple(scan_tags(record.text).get(tag) for tag in tags) for record in split_records([text])]


def downloads(folder) -> dict[str, str]:
    """A folder of every built-in format's fixtures that read valid or invalid (not refused), the
    aagenielsen.dk game named as the site's files are (`game-<type>-<page>-<game id>.json`): each
    file's path -> its format."""
    folder.mkdir()
    formats = {}
    for format in sorted(built_in_formats() - {"lgn"}):
        for path in sorted((FIXTURES / format).iterdir()):
            name = "game-16-3-24187.json" if path.name == "copenhagen.json" else path.name  # AageGameTypeKey 16
            formats[str(shutil.copy(path, folder / name))] = format
    return formats


def test_every_record_of_a_folder_of_many_files_keeps_its_file_place_and_site_id(tmp_path):
    folder = tmp_path / "downloads"
    formats = downloads(folder)
    converted = run("convert", "--to", "lgn", folder).stdout
    db = tmp_path / "games.db"
    assert run("import", "--db", db, folder).exit_code == 0
    queried = run("query", "--db", db, "--format", "lgn").stdout
    for written in converted, queried:
        found = sources(written, ("SourceFormat", "SourceFile", "SourceRecord", "SiteGameId"))
        assert {format for format, *_ in found} == built_in_formats() - {"lgn"}
        for format, file, place, site_id in found:
            assert formats[file] == format, file
            assert (place is None) == FORMATS[format].one_game  # a file of many records: its record's place
            assert site_id == ("24187" if file.endswith("game-16-3-24187.json") else None)
    for record in split_records([converted]):  # SourceRecord is what show --record takes
        tags = scan_tags(record.text)
        if "SourceRecord" in tags:
            shown = api.board(tags["SourceFile"], index=int(tags["SourceRecord"]))
            assert (
                f"after ply {shown.ply} of" in shown.text() and len(parse_record(record.text).main.plies) == shown.ply
            )
    assert len(list(split_records([queried]))) > len(list(split_records([converted])))  # the invalid ones too, as lgn


def test_a_folder_converted_into_one_stream_keeps_each_records_file_and_place(tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    shutil.copy(FIXTURES / "otn" / "brandubh.otg", folder)
    shutil.copy(FIXTURES / "aage" / "copenhagen.json", folder)
    done = run("convert", "--to", "lgn", folder)
    assert sources(done.stdout) == [
        ("otn", str(folder / "brandubh.otg"), None),  # one game a file: no place
        ("aage", str(folder / "copenhagen.json"), "0"),  # what show --record takes
    ]
    (tmp_path / "all.lgn").write_text(done.stdout)
    assert run("validate", tmp_path / "all.lgn").exit_code == 0  # lgn that validate reads


def test_query_writes_records_of_other_formats_as_lgn_with_their_source_tags(tmp_path):
    db = tmp_path / "games.db"
    assert (
        run("import", "--db", db, FIXTURES / "otn" / "brandubh.otg", FIXTURES / "aage" / "copenhagen.json").exit_code
        == 0
    )
    written = run("query", "--db", db, "--format", "lgn").stdout
    assert sources(written) == [
        ("otn", str(FIXTURES / "otn" / "brandubh.otg"), None),
        ("aage", str(FIXTURES / "aage" / "copenhagen.json"), "0"),
    ]
    assert written.startswith('[Game "') and "{" not in written.split("\n", 1)[0]  # lgn, not the JSON or OTN
    (tmp_path / "back.lgn").write_text(written)
    checked = run("validate", tmp_path / "back.lgn")
    assert checked.exit_code == 0 and "2 records: 2 valid" in checked.output


def test_a_record_of_text_or_an_lgn_file_gets_no_source_tags(tmp_path):
    assert "Source" not in run("convert", "--to", "lgn", ROOT / "samples" / "tablut" / "escape.lgn").stdout
    otn = (FIXTURES / "otn" / "brandubh.otg").read_text()
    assert "Source" not in CliRunner().invoke(main, ["convert", "--to", "lgn", "--from", "otn", "-"], input=otn).stdout


def test_the_place_tags_are_those_the_record_does_not_hold_itself():
    """h78c: `place_tags`, the tags written that say only where a record was read (which `import --replace` leaves
    out when it looks for a record moved), leaves out a SourceFile the record holds itself (a plug-in reader's,
    which the written text keeps: its own): taken for a place tag, two records told apart by it alone were one."""
    path = str(FIXTURES / "csv" / "brandubh.csv")
    report = check(next(iter(read_text((FIXTURES / "csv" / "brandubh.csv").read_text(), "csv", path))))
    assert place_tags(report) == ("SourceFile", "SourceRecord")
    report.record.tags["SourceFile"] = "own.csv"
    assert place_tags(report) == ("SourceRecord",)


def test_a_record_of_a_format_no_longer_registered_keeps_its_file_and_place_in_it():
    """h83a: the format a record was read in may be a plug-in's no longer installed (a record the archive
    holds): not known to hold one game a file, the record's place in its file is written too, not a KeyError."""
    from lusoria.formats.lgn import source_tags
    from lusoria.notation.reader import RecordText

    assert "gone" not in FORMATS
    source = RecordText('[Game "tablut"]\n\n1. e3-c3 *\n', line=7, index=2, path="games/a.gone", format="gone")
    assert source_tags(source) == {"SourceFormat": "gone", "SourceFile": "games/a.gone", "SourceRecord": "2"}


def test_a_record_of_another_format_that_was_not_read_is_handed_back_without_source_tags():
    """h83a: `with_source_tags` of a record not read (its text broken: no record to hold the tags) hands the
    report back as it is, whatever tags its source would give."""
    from lusoria.formats.lgn import source_tags, with_source_tags
    from lusoria.notation.reader import RecordText

    report = check(RecordText('[Game "tablut"]\n\n1. zz *\n', path="games/a.csv", format="csv", index=1))
    assert report.record is None and source_tags(report.source)
    assert with_source_tags(report) is report
