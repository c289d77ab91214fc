"""Datasette metadata for an archive: labels, facets, descriptions (docs/archive.md, "Datasette").

    python -m lusoria.archive.datasette lusoria.db > metadata.json
    datasette lusoria.db --metadata metadata.json --setting truncate_cells_html 80
"""

from __future__ import annotations

import json
import sys
from importlib.resources import files
from pathlib import Path


def metadata(path: str = "lusoria.db") -> dict:
    """The metadata shipped with lusoria (`datasette.json`), for the archive at `path`: Datasette
    names a database after its file, without the extension."""
    shipped = json.loads(files("lusoria.archive").joinpath("datasette.json").read_text("utf-8"))
    shipped["databases"] = {Path(path).stem: shipped["databases"]["lusoria"]}
    return shipped


if __name__ == "__main__":
    print(json.dumps(metadata(*sys.argv[1:2]), indent=2, ensure_ascii=False))
