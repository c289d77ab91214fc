"""Helpers for cog, which writes the real output of commands into the docs.

Regenerate: `cog -r -I docs README.md docs/*.md`; the test suite runs `cog --check`.
"""

import os
import shlex
import tempfile

import cog
from click.testing import CliRunner

from lusoria.cli import main


def console(command: str, input: str | None = None) -> None:
    """Run a `lusoria …` command and write it with its output as a console block."""
    result = CliRunner().invoke(main, shlex.split(command)[1:], input=input)
    shown = f"{command} <<'EOF'\n{input}EOF" if input is not None else command
    cog.out(f"```console\n$ {shown}\n{result.output}```\n")


def file(path: str, language: str = "") -> None:
    """Write a file of the project into the docs."""
    with open(path, encoding="utf-8") as text:
        cog.out(f"```{language}\n{text.read()}```\n")


_scratch: list[str] = []


def archive_console(command: str) -> None:
    """Like `console`, run in a scratch directory that holds `samples` and, once
    `lusoria import` has run, `lusoria.db` (the default archive)."""
    if not _scratch:
        folder = tempfile.mkdtemp(prefix="lusoria-docs-")
        os.symlink(os.path.abspath("samples"), os.path.join(folder, "samples"))
        _scratch.append(folder)
    here = os.getcwd()
    os.chdir(_scratch[0])
    try:
        os.environ.pop("LUSORIA_DB", None)
        console(command)
    finally:
        os.chdir(here)


def schema() -> None:
    """The CREATE statements of a new archive."""
    from lusoria.archive.schema import open_archive

    folder = tempfile.mkdtemp(prefix="lusoria-schema-")
    db = open_archive(os.path.join(folder, "schema.db"))
    statements = [row[0] + ";" for row in db.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'records_fts_%' ORDER BY rowid")]
    cog.out("```sql\n" + "\n".join(statements) + "\n```\n")


def scratch_file(name: str, text: str) -> None:
    """Write a file into the scratch directory of `archive_console`, and into the docs."""
    with open(os.path.join(_scratch[0], name), "w", encoding="utf-8") as out:
        out.write(text)
    cog.out(f"```\n$ cat {name}\n{text}```\n")


def duckdb_console(sql: str) -> None:
    """Run SQL through DuckDB in the scratch directory of `archive_console` (after `lusoria
    export`), and write it with what DuckDB prints."""
    import duckdb

    here = os.getcwd()
    os.chdir(_scratch[0])
    try:
        shown = str(duckdb.sql(sql))
    finally:
        os.chdir(here)
    cog.out(f'```python\n>>> import duckdb\n>>> print(duckdb.sql("""\n{sql}"""))\n{shown}```\n')
