"""The archive in Datasette, with the metadata lusoria ships (in process: no server, no network)."""

import asyncio
import html
import json
import logging
import re
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
from conftest import ROOT

from lusoria import rulebook
from lusoria.archive import Archive, datasette
from lusoria.archive.positions import EXACT_PLIES

datasette_app = pytest.importorskip("datasette.app", reason="Datasette is a test extra: pip install -e '.[test]'")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("datasette") / "club.db")
    archive = Archive(path)
    archive.import_paths([str(ROOT / "samples/tablut"), str(ROOT / "samples/latrunculi/seneca.lgn")])
    return datasette.site(path)  # as `lusoria serve` serves it


def get(site, url: str):
    response = asyncio.run(site.client.get(url))
    assert response.status_code == 200, url
    return response.text


def test_the_metadata_is_shipped_for_any_archive_name():
    output = subprocess.run(
        [sys.executable, "-m", "lusoria.archive.datasette", "some/where/club.db"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shipped = json.loads(output)
    assert list(shipped["databases"]) == ["club"]
    assert shipped["databases"]["club"]["tables"]["records"]["label_column"] == "label"


def test_the_records_list_has_labels_and_facets_but_not_the_whole_text(site):
    page = html.unescape(get(site, "/club/records"))
    assert "One row per record." in page  # the table's description
    assert "Karin Nilsson – Olof Berg, 2026.11.21" in page
    for facet in ("game", "variant", "result", "valid", "first_rule"):
        assert f'data-column="{facet}"' in page
    seneca = (ROOT / "samples/latrunculi/seneca.lgn").read_text()
    assert seneca.split("\n")[-3] not in page  # the end of a long record is cut off in the list …
    record = json.loads(get(site, "/club/records.json?_shape=array&path__endswith=seneca.lgn"))[0]
    page = html.unescape(get(site, f"/club/records/{record['id']}"))  # … and on its page, which links to the whole
    assert seneca.split("\n")[-3] not in page and f'href="/club/record_texts?id={record["id"]}"' in page
    whole = json.loads(get(site, f"/club/record_texts.json?_shape=array&id={record['id']}"))
    assert whole == [{"id": record["id"], "text": seneca.rstrip("\n") + "\n"}]


def test_the_metadata_describes_the_columns_the_archive_has(site):
    """The records' description named a column `text` that no table has (the text is
    `packed_text`), and said it was shown whole on a record's own page, where it is cut (new user 20)."""
    path = site.databases["club"].path
    assert Archive(path).datasette_metadata() == datasette.metadata(path)  # the library's call, the same
    described = datasette.metadata(path)["databases"]["club"]["tables"]
    with closing(sqlite3.connect(path)) as conn:
        for table, meta in described.items():
            columns = {row[1] for row in conn.execute(f'PRAGMA table_xinfo("{table}")')}
            assert set(meta.get("columns", {})) <= columns, table
    assert "whole on a record's own page" not in described["records"]["description"]
    assert "record_texts" in described["records"]["columns"]["packed_text"]


def test_a_record_shorter_than_the_cells_limit_is_shown_whole_without_a_link(tmp_path):
    short = '[Game "tablut"]\n1. e3-c3 *\n'  # under the 80 characters of truncate_cells_html
    (tmp_path / "short.lgn").write_text(short)
    Archive(str(tmp_path / "club.db")).import_paths([str(tmp_path / "short.lgn")])
    site = datasette.site(str(tmp_path / "club.db"))
    page = html.unescape(get(site, "/club/records/1"))
    assert f'<td class="col-packed_text type-bytes">{short}</td>' in page
    assert "the whole text" not in page and "record_texts?id=" not in page


def test_a_row_of_a_record_names_its_record_by_its_label(site):
    page = html.unescape(get(site, "/club/material_runs?first_ply=0&_sort=record_id"))
    assert "Karin Nilsson – Olof Berg, 2026.11.21" in page
    plies = json.loads(get(site, "/club/plies.json?_shape=array&_size=20"))  # a view: its rows by id
    assert all(len(ply["position"] or "") == (11 if ply["ply"] < EXACT_PLIES else 0) for ply in plies)
    assert any(ply["move"] for ply in plies)


def test_the_plies_view_is_filtered_by_its_record_and_ply(site):
    """`plies?record_id=1` found no row (h78b): Datasette compares the value typed as text, which the vocabulary
    table's `doc` and `offset`, columns of no type, never equal; the view casts them."""
    plies = json.loads(get(site, "/club/plies.json?_shape=array&record_id=1&_size=max"))
    held = sqlite3.connect(site.databases["club"].path).execute("SELECT count(*) FROM plies WHERE record_id = 1")
    assert len(plies) == held.fetchone()[0] > 0 and {ply["record_id"] for ply in plies} == {1}
    [third] = json.loads(get(site, "/club/plies.json?_shape=array&record_id=1&ply=3"))
    assert third["ply"] == 3


def test_serve_suggests_no_facets_but_computes_those_of_the_metadata(site):
    # Datasette 0.65 counts the whole table or view for its suggestions under the query's time
    # limit, uncaught: the page of the `plies` view of 100,000 records was a 400 "SQL Interrupted"
    assert site.setting("suggest_facets") is False
    page = html.unescape(get(site, "/club/records"))
    assert "Suggested facets" not in page and 'data-column="first_rule"' in page
    for table in ("records", "diagnostics", "tags", "plies"):
        found = json.loads(get(site, f"/club/{table}.json"))
        configured = datasette.metadata(site.databases["club"].path)["databases"]["club"]["tables"][table]
        assert found["suggested_facets"] == [], table
        assert sorted(found["facet_results"]) == sorted(configured.get("facets", [])), table


def test_rule_ids_explain_themselves(site):
    rule = json.loads(get(site, "/club/rules.json?_shape=array&id=T2"))[0]
    assert (rule["game"], rule["title"]) == ("tablut", rulebook.rule("T2").title)
    assert rule["text"] == rulebook.rule("T2").text
    assert "Every rule a diagnostic may cite" in html.unescape(get(site, "/club/rules"))


def test_serving_the_archive_counts_every_table_and_logs_no_error(site, capsys, caplog, monkeypatch):
    # Datasette counts each table with count(*): `positions` keeps its documents' sizes (schema
    # version 14), without which its index cannot be scanned ("positions: table does not support
    # scanning", an ERROR line, and no counts on the first page)
    # (its pages give each count 5 or 10 ms, which a loaded machine can miss: a count of None; here
    # every count has a minute, as `datasette inspect` gives them an hour)
    counted = datasette_app.Database.table_counts
    monkeypatch.setattr(
        datasette_app.Database, "table_counts", lambda database, limit=10: counted(database, limit=60_000)
    )
    listed = json.loads(get(site, "/.json"))["club"]
    counts = {table["name"]: table["count"] for table in json.loads(get(site, "/club.json"))["tables"]}
    with closing(sqlite3.connect(site.databases["club"].path)) as conn:
        lines = conn.execute("SELECT count(DISTINCT doc) FROM position_plies").fetchone()[0]
        records = conn.execute("SELECT count(*) FROM records").fetchone()[0]
    assert counts["positions"] == lines > 0 and counts["records"] == records > 0
    assert None not in counts.values()
    first = listed["tables_and_views_truncated"]  # the first page: the tables most linked to, with their counts
    assert listed["show_table_row_counts"] and [t["count"] for t in first] == [counts[t["name"]] for t in first]
    assert "ERROR" not in capsys.readouterr().err
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []


def test_an_sql_functions_refusal_is_one_line_with_no_traceback(site, monkeypatch):
    """Datasette turns SQLite's callback tracebacks on when imported: a function of lusoria's that
    refuses its argument (one line) printed a traceback in the server's log besides Datasette's
    one ERROR line; `lusoria serve` turns them off."""
    sqlite3.enable_callback_tracebacks(True)  # as importing Datasette does
    served = datasette.site(site.databases["club"].path)
    tracebacks = []
    monkeypatch.setattr(sys, "unraisablehook", tracebacks.append)
    response = asyncio.run(served.client.get("/club.json?sql=select+lusoria_text(x'0011')"))
    assert (response.status_code, response.json()["error"]) == (400, "user-defined function raised exception")
    assert tracebacks == []


def test_a_records_label_leads_to_its_replay_page(site):
    """A club member lists a player's games (`records?white=…`): each game's label is a link to its replay
    page, as the explorer's games are (there was no way from Datasette's pages to a game's board)."""
    found = json.loads(get(site, "/club/records.json?_shape=array&white=Karin+Nilsson&_sort=id"))
    page = get(site, "/club/records?white=Karin+Nilsson&_sort=id")
    links = re.findall(r'<td class="col-label[^"]*"><a href="([^"]*)" title="replay">([^<]*)</a>', page)
    assert links == [(f"/-/explorer/club/record/{row['id']}", html.escape(row["label"])) for row in found] != []
    assert f'<a href="/-/explorer/club/record/{found[0]["id"]}" title="replay">' in get(
        site, f"/club/records/{found[0]['id']}"
    )
    replay = get(site, links[0][0])
    assert f"<title>{html.escape(found[0]['white'])}" in replay


def test_a_records_text_is_cut_after_80_characters_in_the_lists(site):
    text = json.loads(get(site, "/club/record_texts.json?_shape=array&_size=1"))[0]["text"]
    page = html.unescape(get(site, "/club/records?_size=max"))
    assert len(text) > 81 and text[:80] + "\u2026" in page and text[:81] not in page


def test_the_query_variants_counts_the_records_as_stats_does(tmp_path):
    """h75b: the variant facet said `standard: 2` of a Copenhagen and a Brandubh game, and counted Saami
    Tablut-w's records (Tablut's aage with Rules first=white) as aage's, where `lusoria stats` tells them apart:
    the canned query `variants` counts as stats does."""
    records = [
        '[Game "tablut"]\n[Variant "aage"]\n[Rules "first=white"]\n\n*\n',
        '[Game "tablut"]\n[Variant "aage"]\n\n*\n',
        '[Game "tablut"]\n[Variant "aage"]\n\n1. e1-f1 *\n',
        '[Game "copenhagen"]\n\n*\n',
        '[Game "brandubh"]\n\n*\n',
        '[Game "tablut"]\n[Variant "nonesuch"]\n\n*\n',
        '[Event "no game"]\n\n*\n',  # (no variant of any game, as stats counts it)
    ]
    (tmp_path / "club.lgn").write_text("\n".join(records))
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths([str(tmp_path / "club.lgn")])
    site = datasette.site(archive.path)
    facet = json.loads(get(site, "/club/records.json?_facet=variant"))["facet_results"]["variant"]["results"]
    assert {row["value"]: row["count"] for row in facet}["aage"] == 3  # (the tag as written)
    counted = json.loads(get(site, "/club/variants.json?_shape=array"))
    assert counted == [{"variant": row["value"], "records": row["records"]} for row in archive.stats()["variants"]]
    assert counted == [
        {"variant": "tablut/aage", "records": 2},
        {"variant": None, "records": 1},
        {"variant": "brandubh/standard", "records": 1},
        {"variant": "copenhagen/standard", "records": 1},
        {"variant": "tablut/nonesuch", "records": 1},
        {"variant": "tablut/saami-tablut-w", "records": 1},
    ]
