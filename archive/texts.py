"""The records' text, compressed (schema version 9): `records.packed_text` holds each record's
text compressed with Zstandard, with the archive's dictionary once it has one; the view
`record_texts` (`id`, `text`) reads it back through the SQL function `lusoria_text`, which every
connection lusoria opens has (`add_functions`; Datasette's too, through lusoria's plugin:
archive/datasette_plugin.py). The table itself needs no function: another program reads
`records`, `SELECT *` and `PRAGMA integrity_check` included, with SQLite alone. A text as written is about as large as the input; compressed with
a dictionary trained on the archive's first records it takes about a third of that, without
one about two thirds (docs/archive.md, "Size").

The dictionary (`text_dictionaries`) is trained once, on the texts of the archive's first
TRAIN_AT records, when a batch of an import brings the archive to that many (the records
stored before it keep theirs without one); an upgrade from version 8 trains it on the
archive's first records as well. Each compressed text names its dictionary (Zstandard's
dictionary id, the row's id; 0: none)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

import zstandard

from lusoria.archive.functions import FunctionError, inflated, sql_function
from lusoria.archive.positions import board_at, unpacked_boards

TRAIN_AT = 1000  # records: the dictionary is trained on the first records' texts once there are this many
DICTIONARY_SIZE = 65536  # bytes: a third of the texts, where 16 KiB leaves 40% (BENCHMARKS.md, "Issue 31")
LEVEL = 3  # a tenth smaller than level 1 with a dictionary, for about a second more per 100,000 records
TEXT_FUNCTION = "lusoria_text"
TEXT_OF = f'{TEXT_FUNCTION}("packed_text")'  # a record's text, in SQL over `records`


def create_text_dictionaries(db) -> None:
    """`text_dictionaries`: the archive's Zstandard dictionaries for the records' texts, by id."""
    db.execute('CREATE TABLE "text_dictionaries" ("id" INTEGER PRIMARY KEY, "dictionary" BLOB NOT NULL)')


def create_text_view(db) -> None:
    """`record_texts`: each record's id and text, for SQL (`lusoria sql`, Datasette)."""
    db.execute(f'CREATE VIEW "record_texts" AS SELECT "id", {TEXT_OF} AS "text" FROM "records"')


def text_reader(conn: sqlite3.Connection) -> Callable[[bytes], str]:
    """The SQL function `lusoria_text(packed_text)` of `conn`: the text a record's
    `packed_text` holds. A dictionary is read from `conn` when a text first names it (an import
    may train one while a reader is open); the contexts are this thread's (Datasette queries an
    archive from several)."""
    dictionaries: dict[int, zstandard.ZstdCompressionDict | None] = {0: None}
    local = threading.local()

    def unpack(packed: bytes) -> str:
        number = zstandard.get_frame_parameters(packed).dict_id
        contexts = getattr(local, "contexts", None)
        if contexts is None:
            contexts = local.contexts = {}
        context = contexts.get(number)
        if context is None:
            if number not in dictionaries:
                row = conn.execute("SELECT dictionary FROM text_dictionaries WHERE id = ?", [number]).fetchone()
                if row is None:
                    raise FunctionError(f"a record's text names dictionary {number}, which the archive lacks")
                dictionaries[number] = zstandard.ZstdCompressionDict(row[0])
            context = contexts[number] = zstandard.ZstdDecompressor(dict_data=dictionaries[number])
        return inflated(context, packed).decode("utf-8")

    return unpack


def add_functions(conn: sqlite3.Connection) -> None:
    """Give `conn` the SQL functions that read what the archive keeps compressed: the records'
    texts (`lusoria_text`), and a record's boards, one a line (`lusoria_boards`), or at a ply
    (`lusoria_board_at`: archive/positions.py)."""
    sql_function(conn, TEXT_FUNCTION, text_reader(conn), bytes)
    sql_function(conn, "lusoria_boards", unpacked_boards, bytes)
    sql_function(conn, "lusoria_board_at", board_at, bytes, int)


def damaged_record(conn: sqlite3.Connection) -> int | None:
    """The first record whose text or boards cannot be read (a damaged archive), if any: what a
    function's failure is looked for with, after the statement it broke."""
    unpack = text_reader(conn)
    for sql, read in (
        ("SELECT id, packed_text FROM records ORDER BY id", unpack),
        ("SELECT record_id, boards FROM record_boards ORDER BY record_id", unpacked_boards),
    ):
        for number, packed in conn.execute(sql):
            try:
                read(packed)
            except Exception:
                return number
    return None


class TextPacker:
    """How a writing process compresses the records' texts: with the archive's dictionary, which
    it trains when a batch brings the archive to TRAIN_AT records (`prepare`, at the start of
    each batch's transaction)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.number = -1  # the dictionary compressed with (0: none; -1: not read yet)
        self.compressor = zstandard.ZstdCompressor(level=LEVEL)

    def refresh(self) -> None:
        """Read the archive's dictionary, when it has one this process has not read (another
        import trained it, or a batch rolled back the one this one trained)."""
        number = self.conn.execute("SELECT coalesce(max(id), 0) FROM text_dictionaries").fetchone()[0]
        if number != self.number:  # (its blob, up to 64 KiB, read only then: refresh runs at every batch)
            row = self.conn.execute("SELECT dictionary FROM text_dictionaries WHERE id = ?", (number,)).fetchone()
            self.use(number, zstandard.ZstdCompressionDict(row[0]) if row else None)

    def use(self, number: int, dictionary: zstandard.ZstdCompressionDict | None) -> None:
        self.number = number
        self.compressor = (
            zstandard.ZstdCompressor(level=LEVEL, dict_data=dictionary)
            if dictionary
            else zstandard.ZstdCompressor(level=LEVEL)
        )

    def prepare(self, texts: list[str]) -> None:
        """Before a batch of new records (`texts`) is stored: train the dictionary when the archive
        has none and these bring it to TRAIN_AT records."""
        self.refresh()
        if self.number:
            return
        stored = self.conn.execute("SELECT count(*) FROM records").fetchone()[0]
        if stored < TRAIN_AT <= stored + len(texts):
            self.train(self.first_texts() + texts[: TRAIN_AT - stored])

    def first_texts(self, text: str = TEXT_OF) -> list[str]:
        """The texts of the archive's first TRAIN_AT records (or of all, when it has fewer);
        `text`: the SQL that reads one from `records`."""
        return [found for (found,) in self.conn.execute(f"SELECT {text} FROM records ORDER BY id LIMIT ?", [TRAIN_AT])]

    def train_first(self) -> None:
        """Train the archive's dictionary on its first TRAIN_AT records' texts, when it has that
        many (an upgrade from version 8)."""
        first = self.first_texts("text")  # version 8's column
        if len(first) >= TRAIN_AT:
            self.train(first)

    def train(self, samples: list[str]) -> None:
        """Train the archive's dictionary on `samples` and store it (in the transaction under way);
        samples Zstandard cannot train on (too few, too alike) leave the archive without one."""
        number = 1 + self.conn.execute("SELECT coalesce(max(id), 0) FROM text_dictionaries").fetchone()[0]
        try:
            dictionary = zstandard.train_dictionary(
                DICTIONARY_SIZE, [text.encode("utf-8") for text in samples], dict_id=number, level=LEVEL
            )
        except zstandard.ZstdError:
            return
        self.conn.execute(
            "INSERT INTO text_dictionaries (id, dictionary) VALUES (?, ?)", [number, dictionary.as_bytes()]
        )
        self.use(number, dictionary)

    def pack(self, text: str) -> bytes:
        """A record's `packed_text`."""
        return self.compressor.compress(text.encode("utf-8"))
