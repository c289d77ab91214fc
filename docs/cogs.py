"""Helpers for cog, which writes the real output of commands into the docs.

Regenerate: `cog -r -I docs README.md docs/*.md`; the test suite runs `cog --check`.
"""

import shlex

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
