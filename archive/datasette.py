"""Datasette metadata for an archive: labels, facets, descriptions (docs/archive.md, "Datasette"),
and `lusoria serve`: the archive in Datasette, with the opening explorer, on this machine.

    python -m lusoria.archive.datasette lusoria.db > metadata.json
    datasette lusoria.db --metadata metadata.json --setting truncate_cells_html 80 --setting suggest_facets off
"""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import sys
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from lusoria.errors import LusoriaError

if TYPE_CHECKING:
    from datasette.app import Datasette

INSTALL = "pip install 'lusoria[web]'"
SETTINGS = {
    "truncate_cells_html": 80,  # a record's text cut in the lists
    # no suggested facets: Datasette 0.65 counts the whole table or view for them under the
    # query's own time limit, uncaught (the `plies` view of 100,000 records: 3 s, then a 400
    # "SQL Interrupted"); the facets of the metadata are computed still
    "suggest_facets": False,
}


class MissingDatasette(LusoriaError):
    """`serve` without Datasette installed."""


def metadata(path: str = "lusoria.db") -> dict:
    """The metadata shipped with lusoria (`datasette.json`), for the archive at `path`: Datasette
    names a database after its file, without the extension."""
    shipped = json.loads(files("lusoria.archive").joinpath("datasette.json").read_text("utf-8"))
    shipped["databases"] = {Path(path).stem: shipped["databases"]["lusoria"]}
    return shipped


def explorer_path(path: str) -> str:
    """The path of the explorer of the archive at `path` in Datasette (archive/datasette_plugin.py):
    its name in Datasette's routes, tilde-encoded (`autumn open.db`: `autumn+open`)."""
    from datasette.utils import tilde_encode

    return f"/-/explorer/{tilde_encode(Path(path).stem)}"


def site(path: str) -> Datasette:
    """The archive at `path` in Datasette, with lusoria's metadata and SETTINGS (and its plugin,
    found by its entry point). MissingDatasette without Datasette. Datasette turns SQLite's
    callback tracebacks on when imported, for the whole process: they are turned off again, so
    that an SQL function's refusal (archive/functions.py: one line) is Datasette's one ERROR line
    in the log, not a traceback too (not in the plugin: `datasette` run with other plugins keeps them)."""
    try:
        from datasette.app import Datasette
    except ImportError:
        raise MissingDatasette(f"lusoria serve needs Datasette: {INSTALL}") from None
    sqlite3.enable_callback_tracebacks(False)
    return Datasette([path], metadata=metadata(path), settings=SETTINGS)


def serve(path: str, port: int, ready: Callable[[str], None]) -> None:
    """Serve the archive at `path` (read through Datasette's read-only connections) as `site`
    on 127.0.0.1:`port` (0: any free port), calling `ready` with the explorer's address once it
    listens, until interrupted. MissingDatasette without Datasette."""
    served = site(path)
    import uvicorn  # (a dependency of Datasette)

    asyncio.run(served.invoke_startup())
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", port))
    listening.listen(100)  # connections wait from now on, before the address is said
    ready(f"http://127.0.0.1:{listening.getsockname()[1]}{explorer_path(path)}")
    uvicorn.Server(uvicorn.Config(served.app(), log_level="warning")).run(sockets=[listening])


if __name__ == "__main__":
    print(json.dumps(metadata(*sys.argv[1:2]), indent=2, ensure_ascii=False))
