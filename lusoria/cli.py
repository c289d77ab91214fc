"""The `lusoria` command: a thin click layer over `lusoria.api`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from lusoria import __version__, api
from lusoria.notation.sources import STDIN, InputError, expand, read_sources
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.replay import ERROR, Diagnostic, Report

paths_argument = click.argument("paths", nargs=-1, required=True, metavar="PATH...")
encoding_option = click.option("--encoding", default="utf-8", show_default=True,
                               help="Text encoding of the input (e.g. latin-1, cp1252).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lusoria")
def main() -> None:
    """Parse, validate and archive game records of Tablut, Ludus latrunculorum and Laquet."""


def show_diagnostic(report: Report, diagnostic: Diagnostic) -> str:
    """Compiler-style: file:line:col: severity[rule]: message, the line, a caret."""
    where = f"{report.source.path or '<text>'}:{diagnostic.line}:{diagnostic.column}"
    head = f"{where}: {diagnostic.severity}[{diagnostic.rule}]: {diagnostic.message}"
    lines = report.source.text.split("\n")
    index = diagnostic.line - report.source.line
    if not 0 <= index < len(lines) or not diagnostic.column:
        return head
    number = str(diagnostic.line)
    caret = " " * (diagnostic.column - 1) + "^" * max(1, len(diagnostic.text.split("\n")[0]))
    return f"{head}\n {number} | {lines[index]}\n {' ' * len(number)} | {caret}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@encoding_option
def validate(paths: tuple[str, ...], as_json: bool, strict: bool, encoding: str) -> None:
    """Check every record of PATH... (files, directories of *.lgn, - for stdin).

    Exit status: 0 when every record is valid, 1 when any is not, 2 when an
    input cannot be read."""
    records = invalid = errors = warnings = 0
    unreadable = False
    for item in api.validate(paths, encoding, strict):
        if isinstance(item, InputError):
            click.echo(f"lusoria: {item}", err=True)
            unreadable = True
            continue
        records += 1
        invalid += not item.valid
        errors += sum(d.severity == ERROR for d in item.diagnostics)
        warnings += sum(d.severity != ERROR for d in item.diagnostics)
        if as_json:
            click.echo(json.dumps(item.as_json(), ensure_ascii=False))
        else:
            for diagnostic in item.diagnostics:
                click.echo(show_diagnostic(item, diagnostic))
    if not as_json:
        click.echo(f"{plural(records, 'record')}: {records - invalid} valid, {invalid} invalid "
                   f"({plural(errors, 'error')}, {plural(warnings, 'warning')})")
    sys.exit(2 if unreadable else 1 if invalid else 0)


@main.command()
@paths_argument
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a file is not in canonical form.")
@click.option("--write", is_flag=True, help="Rewrite the files in place.")
@encoding_option
def fmt(paths: tuple[str, ...], check: bool, write: bool, encoding: str) -> None:
    """Write the records of PATH... in canonical form (to standard output by default)."""
    if write and STDIN in paths:
        raise click.UsageError("--write cannot rewrite standard input")
    status = 0
    for path in expand(paths):
        try:
            records = []
            for source in read_sources(path, encoding):
                text, report = api.format_record(source)
                if report.record is None:
                    status = max(status, 1)
                    click.echo(show_diagnostic(report, report.diagnostics[0]), err=True)
                records.append(text.rstrip("\n") + "\n")
        except InputError as error:
            click.echo(f"lusoria: {error}", err=True)
            status = 2
            continue
        formatted = "\n".join(records)
        if check or write:
            original = Path(path).read_text(encoding) if path != STDIN else None
            if formatted != original:
                if check:
                    click.echo(f"{path}: not in canonical form")
                    status = max(status, 1)
                else:
                    Path(path).write_text(formatted, encoding)
        else:
            click.echo(formatted, nl=False)
    sys.exit(status)


@main.command()
@click.argument("path")
@click.option("--record", "index", default=0, show_default=True, help="Which record of the file (0-based).")
@click.option("--ply", type=int, help="Show the board after this ply of the main line (default: the last).")
@encoding_option
def show(path: str, index: int, ply: int | None, encoding: str) -> None:
    """Show the board of a record of PATH after a ply."""
    try:
        source = next((s for i, s in enumerate(read_sources(path, encoding)) if i == index), None)
    except InputError as error:
        raise click.FileError(path, str(error)) from None
    if source is None:
        raise click.BadParameter(f"{path} has no record {index}", param_hint="--record")
    try:
        click.echo(api.board(source, ply).text())
    except ValueError as error:
        click.echo(f"lusoria: {path}, record {index}: {error}", err=True)
        sys.exit(1)


@main.command()
@click.option("--game", required=True, type=click.Choice(sorted(GAMES)), help="Which game.")
@click.option("-n", "count", default=1, show_default=True, help="How many games.")
@click.option("--seed", default=0, show_default=True, help="The same seed gives the same games.")
@click.option("--variant", help="A named rule preset.")
@click.option("--rules", help="Option overrides, as in the Rules tag: 'key=value …'.")
@click.option("--board", help="Latrunculi: the board size, as in the Board tag (WxH).")
@click.option("--max-plies", default=200, show_default=True, help="Stop a game (result *) after this many plies.")
def random(game: str, count: int, seed: int, variant: str | None, rules: str | None, board: str | None,
           max_plies: int) -> None:
    """Write random legal games."""
    tags = {name: value for name, value in (("Variant", variant), ("Rules", rules), ("Board", board)) if value}
    try:
        for index, text in enumerate(api.random_records(game, count, seed, tags, max_plies)):
            click.echo(("\n" if index else "") + text, nl=False)
    except OptionError as error:
        raise click.UsageError(str(error)) from None
