"""lusoria's Datasette plugin: the connections Datasette opens get the SQL function that reads
the records' compressed texts (the view `record_texts`: archive/texts.py), and a record's
`packed_text` is shown as its text. Datasette finds it by its
entry point (pyproject.toml, `datasette`); only Datasette imports it."""

from __future__ import annotations

import sqlite3

from datasette import hookimpl
from markupsafe import Markup, escape

from lusoria.archive.texts import TEXT_FUNCTION, add_functions


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    add_functions(conn)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    """A record's compressed text (`records.packed_text`) shown as the text it holds, cut to
    `truncate_cells_html` characters with a link to the whole (`record_texts`)."""
    if table != "records" or column != "packed_text" or not isinstance(value, bytes):
        return None
    limit = datasette.setting("truncate_cells_html")

    async def text() -> Markup:
        found = await datasette.get_database(database).execute(f"SELECT {TEXT_FUNCTION}(?) AS text", [value])
        whole = found.first()["text"]
        if not limit or len(whole) <= limit:
            return Markup(escape(whole))
        link = datasette.urls.table(database, "record_texts") + f"?id={row['id']}"
        return Markup(f'{escape(whole[:limit])}… <a href="{escape(link)}">the whole text</a>')

    return text
