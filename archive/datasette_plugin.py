"""lusoria's Datasette plugin: the connections Datasette opens get the SQL functions an archive's
generated columns read (`records.text`, compressed: archive/texts.py). Datasette finds it by its
entry point (pyproject.toml, `datasette`); only Datasette imports it."""

from __future__ import annotations

import sqlite3

from datasette import hookimpl

from lusoria.archive.texts import add_functions


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    add_functions(conn)
