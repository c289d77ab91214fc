"""lusoria's Datasette plugin: the connections Datasette opens get the SQL function that reads
the records' compressed texts (the view `record_texts`: archive/texts.py) and the one that names a
record's variant as `stats` does (`lusoria_variant`: the query `variants`), a record's
`packed_text` is shown as its text, and the opening explorer (archive/explorer.py) is served
at `/-/explorer/DATABASE` with its JSON (`tree.json`, `games.json`) and each record's replay
page (`record/ID`). Datasette finds it by its entry point (pyproject.toml, `datasette`); only
Datasette imports it."""

from __future__ import annotations

import asyncio
import sqlite3
from functools import partial
from urllib.parse import unquote

from datasette import hookimpl
from datasette.utils import tilde_decode, tilde_encode
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from lusoria.archive import explorer
from lusoria.archive.functions import sql_function
from lusoria.archive.rule_sets import named_variant
from lusoria.archive.texts import TEXT_FUNCTION, add_functions

EXPLORER = r"^/-/explorer/(?P<database>[^/]{1,200})"
CONTENT_TYPES = {"html": "text/html; charset=utf-8", "json": "application/json; charset=utf-8"}


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    add_functions(conn)
    sql_function(conn, "lusoria_variant", named_variant, str, str, str)  # (the query `variants`: h75b)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    """A record's compressed text (`records.packed_text`) shown as the text it holds, cut to
    `truncate_cells_html` characters with a link to the whole (`record_texts`); its `label` a link to
    its replay page (`record/ID`: a player's games, listed, lead to their boards)."""
    if table == "records" and column == "label" and isinstance(value, str):
        replay = datasette.urls.path(f"/-/explorer/{tilde_encode(datasette.get_database(database).route)}")
        return Markup(f'<a href="{escape(replay)}/record/{row["id"]}" title="replay">{escape(value)}</a>')
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


@hookimpl
def register_routes():
    return [
        (EXPLORER + "$", _page),
        (EXPLORER + r"/tree\.json$", _tree),
        (EXPLORER + r"/games\.json$", _games),
        (EXPLORER + r"/record/(?P<record>[0-9]{1,18})$", _record),
    ]


@hookimpl
def menu_links(datasette, actor):
    """The explorer of each archive in Datasette's menu."""
    return [
        {
            "href": datasette.urls.path(f"/-/explorer/{tilde_encode(database.route)}"),
            "label": f"Opening explorer: {name}",
        }
        for name, database in datasette.databases.items()
        if database.path
    ]


async def _answer(datasette, request, kind: str, action) -> Response:
    """Run `action(path)` off the event loop for the request's database, once Datasette lets the
    actor see it; its answer (explorer.answer: a line, never a traceback) within explorer.TIMEOUT."""
    route = tilde_decode(unquote(request.url_vars["database"]))  # as Datasette's pages read it (%20 too)
    database = next((found for found in datasette.databases.values() if found.route == route), None)
    if database is None or not database.path:
        return _said(kind, f"no archive named {route[:100]}", 404, {"the archives": datasette.urls.instance()})
    await datasette.ensure_permissions(request.actor, [("view-database", database.name), "view-instance"])
    loop = asyncio.get_running_loop()
    try:
        body, status, back = await asyncio.wait_for(
            loop.run_in_executor(None, explorer.answer, partial(action, database.path)), 2 * explorer.TIMEOUT
        )
    except TimeoutError:
        body, status, back = "the answer took too long", 503, None
    if status != 200:
        explorer_url = datasette.urls.path(f"/-/explorer/{request.url_vars['database']}")
        links = {"the explorer": explorer_url, "the archive": datasette.urls.database(database.name)}
        if back is not None:  # (the line as far as it plays)
            links = {back[0]: explorer_url + back[1], **links}
        return _said(kind, body, status, links)
    return Response(body, status=status, content_type=CONTENT_TYPES[kind])


def _said(kind: str, message: str, status: int, links: dict[str, str]) -> Response:
    """An answer that is no page nor JSON: for a page, a page that says it with links back
    (`explorer.error_page`); for JSON, the line alone."""
    if kind == "html":
        return Response(explorer.error_page(message, status, links), status=status, content_type=CONTENT_TYPES[kind])
    return Response.text(message, status=status)


async def _page(datasette, request) -> Response:
    base = datasette.urls.path(f"/-/explorer/{request.url_vars['database']}")
    return await _answer(
        datasette,
        request,
        "html",
        lambda path: explorer.page(path, explorer.Query.of(request.args), lambda record: f"{base}/record/{record}"),
    )


async def _tree(datasette, request) -> Response:
    return await _answer(datasette, request, "json", lambda path: explorer.tree_json(path, request.args))


async def _games(datasette, request) -> Response:
    return await _answer(datasette, request, "json", lambda path: explorer.games_json(path, request.args))


async def _record(datasette, request) -> Response:
    return await _answer(datasette, request, "html", lambda path: explorer.replay(path, request.url_vars["record"]))
