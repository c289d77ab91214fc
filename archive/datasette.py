"""Datasette metadata for an archive: labels, facets, descriptions (docs/archive.md, "Datasette"),
and `lusoria serve`: the archive in Datasette, with the opening explorer, on this machine.

    python -m lusoria.archive.datasette lusoria.db > metadata.json
    datasette lusoria.db --metadata metadata.json --setting truncate_cells_html 80
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from lusoria.errors import LusoriaError

INSTALL = "pip install 'lusoria[web]'"


class MissingDatasette(LusoriaError):
    """`serve` without Datasette installed."""


def metadata(path: str = "lusoria.db") -> dict:
    """The metadata shipped with lusoria (`datasette.json`), for the archive at `path`: Datasette
    names a database after its file, without the extension."""
    shipped = json.loads(files("lusoria.archive").joinpath("datasette.json").read_text("utf-8"))
    shipped["databases"] = {Path(path).stem: shipped["databases"]["lusoria"]}
    return shipped


def explorer_path(path: str) -> str:
    """The path of the explorer of the archive at `path` in Datasette (archive/datasette_plugin.py)."""
    return f"/-/explorer/{Path(path).stem}"


def serve(path: str, port: int, ready: Callable[[str], None]) -> None:
    """Serve the archive at `path` (read through Datasette's read-only connections) with lusoria's metadata
    and plugin on 127.0.0.1:`port` (0: any free port), calling `ready` with the explorer's
    address once it listens, until interrupted. MissingDatasette without Datasette."""
    try:
        import uvicorn
        from datasette.app import Datasette
    except ImportError:
        raise MissingDatasette(f"lusoria serve needs Datasette: {INSTALL}") from None
    site = Datasette([path], metadata=metadata(path), settings={"truncate_cells_html": 80})
    asyncio.run(site.invoke_startup())
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", port))
    listening.listen(100)  # connections wait from now on, before the address is said
    ready(f"http://127.0.0.1:{listening.getsockname()[1]}{explorer_path(path)}")
    uvicorn.Server(uvicorn.Config(site.app(), log_level="warning")).run(sockets=[listening])


if __name__ == "__main__":
    print(json.dumps(metadata(*sys.argv[1:2]), indent=2, ensure_ascii=False))
