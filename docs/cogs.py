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
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'records_fts_%' "
        "AND name NOT LIKE 'positions_%' ORDER BY rowid")]  # the full-text tables' own
    cog.out("```sql\n" + "\n".join(statements) + "\n```\n")


def rule_examples(*extra: str) -> None:
    """For each rule ID, the shortest record of samples/errors (and `extra` records) with a
    diagnostic citing it (or naming it in its message): the table that `lusoria explain`
    shows examples from."""
    import glob
    import re

    from lusoria.api import validate
    from lusoria.notation.reader import scan_tags
    from lusoria.rulebook import rules
    from lusoria.validator.replay import check

    found: dict[str, tuple[int, str, str]] = {}  # rule -> (how good, record, message)
    extras = [check(text).verdict() for text in extra]
    for report in [*validate(sorted(glob.glob("samples/errors/*.lgn")), jobs=1), *extras]:
        tags = scan_tags(report.source.text)
        kept = " ".join(f'[{name} "{tags[name]}"]' for name in ("Game", "Variant", "Rules", "Board", "Position", "Result")
                        if tags.get(name, "*") != "*")
        movetext = " ".join(line for line in report.source.text.splitlines()
                            if line.strip() and not line.lstrip().startswith(("[", "%")))
        record = f"{kept} {' '.join(movetext.split())}".strip()
        for diagnostic in report.diagnostics:
            for rule in rules():
                cited = diagnostic.rule.upper() == rule.id.upper()
                if cited or re.search(rf"\b{rule.id}\b", diagnostic.message):
                    rank = (not cited, len(record))
                    if rule.id not in found or rank < found[rule.id][0]:
                        found[rule.id] = (rank, record, f"{diagnostic.severity}[{diagnostic.rule}]: {diagnostic.message}")
    rows = [f"| `{rule.id}` | `{found[rule.id][1]}` | {found[rule.id][2]} |" for rule in rules() if rule.id in found]
    cog.out("| rule | record | lusoria says |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


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
