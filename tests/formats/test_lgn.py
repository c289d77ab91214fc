"""A record read from another format, written in lusoria's notation (formats/lgn.py): by `convert`,
`fmt` and into the archive's text (`query --format lgn`), with the tags of its source."""

import shutil

from click.testing import CliRunner
from conftest import ROOT

from lusoria.cli import main
from lusoria.notation.reader import scan_tags, split_records

FIXTURES = ROOT / "tests" / "fixtures" / "formats"


def run(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def sources(text: str) -> list[tuple[str | None, ...]]:
    return [
        tuple(scan_tags(record.text).get(tag) for tag in ("SourceFormat", "SourceFile", "SourceRecord"))
        for record in split_records([text])
    ]


def test_a_folder_converted_into_one_stream_keeps_each_records_file_and_place(tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    shutil.copy(FIXTURES / "otn" / "brandubh.otg", folder)
    shutil.copy(FIXTURES / "aage" / "copenhagen.json", folder)
    done = run("convert", "--to", "lgn", folder)
    assert sources(done.stdout) == [
        ("otn", str(folder / "brandubh.otg"), None),  # one game a file: no place
        ("aage", str(folder / "copenhagen.json"), "1"),
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
        ("aage", str(FIXTURES / "aage" / "copenhagen.json"), "1"),
    ]
    assert written.startswith('[Game "') and "{" not in written.split("\n", 1)[0]  # lgn, not the JSON or OTN
    (tmp_path / "back.lgn").write_text(written)
    checked = run("validate", tmp_path / "back.lgn")
    assert checked.exit_code == 0 and "2 records: 2 valid" in checked.output


def test_a_record_of_text_or_an_lgn_file_gets_no_source_tags(tmp_path):
    assert "Source" not in run("convert", "--to", "lgn", ROOT / "samples" / "tablut" / "escape.lgn").stdout
    otn = (FIXTURES / "otn" / "brandubh.otg").read_text()
    assert "Source" not in CliRunner().invoke(main, ["convert", "--to", "lgn", "--from", "otn", "-"], input=otn).stdout
