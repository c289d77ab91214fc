"""The records' texts, compressed (schema version 9, archive/texts.py): each read back as it was
imported, by lusoria and by another program given lusoria's SQL functions; the dictionary
trained once when an import brings the archive to enough records."""

import sqlite3
from contextlib import closing

import pytest
import zstandard
from conftest import connect

from lusoria.api import random_records
from lusoria.archive import Archive, Filters, tables, texts


@pytest.fixture
def small_training(monkeypatch):
    """A dictionary trained at 40 records (1,000 in use), of 4 KiB."""
    monkeypatch.setattr(texts, "TRAIN_AT", 40)
    monkeypatch.setattr(texts, "DICTIONARY_SIZE", 4096)


def written(count: int, seed: int) -> list[str]:
    return [
        *random_records("tablut", count // 2, seed=seed, max_plies=30),
        *random_records("latrunculi", count - count // 2, seed=seed, max_plies=30),
    ]


def imported(tmp_path, records: list[str], batch_size: int = 1000) -> Archive:
    path = tmp_path / "records.lgn"
    path.write_text("\n".join(records))
    archive = Archive(str(tmp_path / "a.db"))
    summary = archive.import_paths([str(path)], batch_size=batch_size)
    assert summary.added == len(records)
    return archive


def stored(path: str, column: str) -> list:
    with closing(connect(path)) as conn:
        return [
            value for (value,) in conn.execute(f"SELECT {column} FROM records JOIN record_texts USING (id) ORDER BY id")
        ]


def dictionary_ids(path: str) -> list[int]:
    return [zstandard.get_frame_parameters(packed).dict_id for packed in stored(path, "packed_text")]


def test_a_text_read_back_is_the_text_imported(tmp_path, small_training):
    records = written(100, seed=1)
    archive = imported(tmp_path, records, batch_size=30)
    assert stored(archive.path, "text") == [record.rstrip("\n") + "\n" for record in records]
    # the second batch brought the archive to 40 records: it trained the dictionary, which the
    # records from then on are compressed with; those of the first batch keep theirs without one
    assert dictionary_ids(archive.path) == [0] * 30 + [1] * 70
    assert archive.sql("SELECT count(*) AS n FROM text_dictionaries") == [{"n": 1}]
    assert {row["text"] for row in archive.query(Filters(limit=200))} == set(stored(archive.path, "text"))
    assert sum(map(len, stored(archive.path, "packed_text"))) < 0.6 * sum(map(len, records))


def test_an_archive_of_few_records_has_no_dictionary(tmp_path, small_training):
    archive = imported(tmp_path, written(30, seed=2))
    assert dictionary_ids(archive.path) == [0] * 30
    archive.import_paths([])  # nothing new: still none
    assert archive.sql("SELECT count(*) AS n FROM text_dictionaries") == [{"n": 0}]


def test_another_program_reads_the_records_and_the_text_through_lusorias_function(tmp_path):
    archive = imported(tmp_path, written(4, seed=3))
    with closing(sqlite3.connect(archive.path)) as conn:  # SQLite's own: every table and column …
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert [len(row) for row in conn.execute("SELECT * FROM records")] == [len(tables.RECORD_COLUMNS)] * 4
        assert conn.execute("SELECT count(*), count(label), count(packed_text) FROM records").fetchone() == (4, 4, 4)
        with pytest.raises(sqlite3.OperationalError, match="lusoria_text"):  # … but the view of the texts …
            conn.execute("SELECT text FROM record_texts").fetchall()
        texts.add_functions(conn)  # … which lusoria's function reads
        assert [text for (text,) in conn.execute("SELECT text FROM record_texts ORDER BY id")] == stored(
            archive.path, "text"
        )
