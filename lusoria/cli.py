"""The `lusoria` command: a thin click layer over `lusoria.api`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from lusoria import __version__, api
from lusoria.archive import Archive, Filters, NotAnArchive, ReadOnlyError, default_path
from lusoria.archive.query import COLUMNS, FORMATS, TABLE_COLUMNS, render
from lusoria.notation.sources import STDIN, InputError, expand, read_sources
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.replay import ERROR, Diagnostic, Report, Verdict

paths_argument = click.argument("paths", nargs=-1, required=True, metavar="PATH...")
encoding_option = click.option("--encoding", default="utf-8", show_default=True,
                               help="Text encoding of the input (e.g. latin-1, cp1252).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lusoria")
def main() -> None:
    """Parse, validate and archive game records of Tablut, Ludus latrunculorum and Laquet."""


def show_diagnostic(report: Report | Verdict, diagnostic: Diagnostic) -> str:
    """Compiler-style: file:line:col: severity[rule]: message, the line, a caret."""
    where = f"{report.source.path or '<text>'}:{diagnostic.line}:{diagnostic.column}"
    head = f"{where}: {diagnostic.severity}[{diagnostic.rule}]: {diagnostic.message}"
    lines = report.source.text.split("\n")
    index = diagnostic.line - report.source.line
    if not 0 <= index < len(lines) or not diagnostic.column:
        return head
    number = str(diagnostic.line)
    caret = " " * (diagnostic.column - 1) + "^" * max(1, len(diagnostic.text.split("\n")[0]))
    shown = f"{head}\n {number} | {lines[index]}\n {' ' * len(number)} | {caret}"
    if diagnostic.suggestions:
        shown += f" did you mean {' or '.join(diagnostic.suggestions)}?"
    if diagnostic.assumed:
        shown += f"\n {' ' * len(number)} | (assuming {'; '.join(diagnostic.assumed)})"
    return shown


def record_of(path: str, index: int, encoding: str):
    """Record `index` (0-based) of `path`, or a usage error that says why not."""
    try:
        source = next((s for i, s in enumerate(read_sources(path, encoding)) if i == index), None)
    except InputError as error:
        raise click.FileError(path, str(error)) from None
    if source is None:
        raise click.BadParameter(f"{path} has no record {index}", param_hint="--record")
    return source


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--keep-going", is_flag=True,
              help="Past an illegal ply with one nearest suggestion, go on as if it had been written.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=os.cpu_count() or 1,
              show_default="the number of cores", help="Worker processes (output keeps the order of the records).")
@encoding_option
def validate(paths: tuple[str, ...], as_json: bool, strict: bool, keep_going: bool, jobs: int,
             encoding: str) -> None:
    """Check every record of PATH... (files, directories of *.lgn, - for stdin).

    Exit status: 0 when every record is valid, 1 when any is not, 2 when an
    input cannot be read."""
    records = invalid = errors = warnings = 0
    unreadable = False
    for item in api.validate(paths, encoding, strict, jobs, keep_going):
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
@click.option("--format", "format_", type=click.Choice(["text", "svg"]), default="text", show_default=True,
              help="The board as text, or as an SVG diagram.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@encoding_option
def show(path: str, index: int, ply: int | None, format_: str, output: str | None, encoding: str) -> None:
    """Show the board of a record of PATH after a ply (as text, or as SVG)."""
    source = record_of(path, index, encoding)
    try:
        board = api.board(source, ply)
    except ValueError as error:
        click.echo(f"lusoria: {path}, record {index}: {error}", err=True)
        sys.exit(1)
    drawing = board.svg() if format_ == "svg" else board.text()
    if output:
        Path(output).write_text(drawing + "\n", "utf-8")
    else:
        click.echo(drawing)


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@encoding_option
def rules(paths: tuple[str, ...], as_json: bool, encoding: str) -> None:
    """For each record of PATH..., the rule sets under which it is legal: its own, or the
    fewest changes of variant and options (RULES.md) that make it legal."""
    status = 0
    for item in api.fitting(paths, encoding):
        if isinstance(item, InputError):
            click.echo(f"lusoria: {item}", err=True)
            status = 2
            continue
        source, fit = item
        where = f"{source.path or '<text>'}:{source.line}: record {source.index}"
        if as_json:
            click.echo(json.dumps({"path": source.path, "record": source.index, "line": source.line,
                                   "fit": None if isinstance(fit, str) else vars(fit),
                                   "problem": fit if isinstance(fit, str) else None}))
        else:
            click.echo(f"{where}: {fit}")
    sys.exit(status)


@main.command()
@click.argument("path")
@click.option("--record", "index", default=0, show_default=True, help="Which record of the file (0-based).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@encoding_option
def html(path: str, index: int, output: str | None, encoding: str) -> None:
    """Write a self-contained HTML page that replays a record of PATH (← → to step; #ply=N opens a ply)."""
    from lusoria.html import replay_page

    page = replay_page(record_of(path, index, encoding))
    if output:
        Path(output).write_text(page, "utf-8")
    else:
        click.echo(page, nl=False)


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


db_option = click.option("--db", "db", default=default_path, show_default="$LUSORIA_DB or lusoria.db",
                         help="The archive (a SQLite file).")
format_option = click.option("--format", "format_", type=click.Choice(FORMATS), default="table", show_default=True,
                             help="table, json, csv, or lgn (the records themselves, ready for lusoria validate).")


def archive_errors(action):
    """Run `action`, turning archive problems into clear messages and exit statuses."""
    try:
        return action()
    except NotAnArchive as error:
        click.echo(f"lusoria: {error}", err=True)
        sys.exit(2)
    except ReadOnlyError as error:
        click.echo(f"lusoria: {error}", err=True)
        sys.exit(1)
    except ValueError as error:
        raise click.UsageError(str(error)) from None


@main.command(name="import")
@paths_argument
@db_option
@encoding_option
def import_(paths: tuple[str, ...], db: str, encoding: str) -> None:
    """Check the records of PATH... and store them all, valid or not, in the archive.

    A record already in the archive (the same text) is skipped. A progress bar shows
    on a terminal."""
    files = [p for p in expand(paths) if p != STDIN]
    if sys.stderr.isatty() and STDIN not in paths:
        with click.progressbar(length=sum(Path(p).stat().st_size for p in files if Path(p).exists()),
                               label="importing", file=sys.stderr) as bar:
            summary = archive_errors(lambda: Archive(db).import_paths(paths, encoding, progress=bar.update))
    else:
        summary = archive_errors(lambda: Archive(db).import_paths(paths, encoding))
    for problem in summary.unreadable:
        click.echo(f"lusoria: {problem}", err=True)
    click.echo(f"{db}: {summary}")
    sys.exit(2 if summary.unreadable else 0)


def filters_of(options: dict) -> Filters:
    """The Filters that the filter options of `query` (shared by `tree` and `players list`) ask for."""
    pairs = []
    for tag in options.pop("tags"):
        name, equals, value = tag.partition("=")
        if not equals:
            raise click.BadParameter(f"'{tag}' is not NAME=VALUE", param_hint="--tag")
        pairs.append((name, value))
    if positions := options.pop("positions_file"):
        options["positions"] = [line.strip() for line in positions if line.strip() and not line.startswith("#")]
        if not options["positions"]:
            raise click.BadParameter(f"{positions.name} holds no position or pattern", param_hint="--positions")
    if records := options.pop("records_file"):
        try:
            options["records"] = [source.text for source in read_sources(records)]
        except InputError as error:
            raise click.FileError(records, str(error)) from None
        if not options["records"]:
            raise click.BadParameter(f"{records} holds no record", param_hint="--records")
    return Filters(tags=pairs, material=list(options.pop("material")), **options)


@main.command()
@db_option
@click.option("--game", help="tablut, latrunculi or laquet.")
@click.option("--variant", help="The Variant (seed, seneca, piso, petteia, dux, …).")
@click.option("--white", help="White's name (whole, any case).")
@click.option("--black", help="Black's name (whole, any case).")
@click.option("--player", help="A player on either side (whole name, any case).")
@click.option("--event", help="The Event (whole, any case).")
@click.option("--site", help="The Site (whole, any case).")
@click.option("--date-from", help="Games that may have been played on or after this date (YYYY[.MM[.DD]]).")
@click.option("--date-to", help="Games that may have been played on or before this date.")
@click.option("--result", type=click.Choice(["1-0", "0-1", "1/2-1/2", "*"]))
@click.option("--valid/--invalid", default=None, help="Only valid, or only invalid, records.")
@click.option("--rule", help="Records with a diagnostic for this rule (T4, S4, Q6, syntax, …).")
@click.option("--tag", "tags", multiple=True, metavar="NAME=VALUE", help="A tag and its exact value (repeatable).")
@click.option("--text", help="Words found in the players, event, site, source tags or comments.")
@click.option("--position", help="A position string: records that reached it, and at which ply.")
@click.option("--limit", type=click.IntRange(min=0), help="At most this many records.")
@click.option("--include-unknown", is_flag=True, help="Date filters also let records of unknown date through.")
@click.option("--pattern", help="A position pattern (docs/notation.md §6.1): records with a ply that matches.")
@click.option("--symmetric", is_flag=True, help="Patterns also match in the 8 symmetries of a square board.")
@click.option("--positions", "positions_file", type=click.File(encoding="utf-8"),
              help="A file of positions or patterns, one a line: records with a ply that matches any.")
@click.option("--material", multiple=True, metavar="CONDITIONS",
              help="Piece counts, e.g. 'white<=4, king' (repeatable; all hold at the same ply).")
@click.option("--for", "material_for", type=click.IntRange(min=1), default=1,
              help="The ply conditions hold for at least this many plies in a row.")
@click.option("--records", "records_file", type=click.Path(dir_okay=False),
              help="An .lgn file: the same games as its records, or games that continue them.")
@format_option
def query(db: str, format_: str, **filters) -> None:
    """Find records in the archive; oldest first."""
    chosen = filters_of(filters)
    rows = archive_errors(lambda: Archive(db).query(chosen))
    searched = chosen.position or chosen.pattern or chosen.positions or chosen.material
    columns = (TABLE_COLUMNS if format_ == "table" else COLUMNS) + (["ply"] if searched else [])
    click.echo(render(rows, format_, columns), nl=False)


@main.command()
@click.argument("sql")
@db_option
@format_option
def sql(sql: str, db: str, format_: str) -> None:
    """Run read-only SQL on the archive (writes, ATTACH and PRAGMA settings are refused)."""
    rows = archive_errors(lambda: Archive(db).sql(sql))
    click.echo(archive_errors(lambda: render(rows, format_)), nl=False)


@main.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON.")
def stats(db: str, as_json: bool) -> None:
    """Counts per game, variant and result, validity, plies, players and first errors."""
    figures = archive_errors(lambda: Archive(db).stats())
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    plies = figures["plies"]
    click.echo(f"{figures['records']} records: {figures['valid']} valid, {figures['invalid']} invalid; "
               f"plies: mean {plies['mean']}, median {plies['median']}, max {plies['max']}")
    for key, title in (("games", "game"), ("variants", "variant"), ("results", "result"),
                       ("players", "player"), ("first_error_rules", "first error rule")):
        if figures[key]:
            click.echo("\n" + render([{title: row["value"], "records": row["records"]} for row in figures[key]],
                                      "table"), nl=False)


def filter_options(command: click.Command) -> click.Command:
    """Give `command` (made already) the filter options of `query`, all but --limit."""
    command.params += [param for param in query.params if param.name not in ("db", "format_", "limit")]
    return command


@filter_options
@main.command()
@click.argument("start", required=False, metavar="[POSITION]")
@db_option
@click.option("--record", type=int, help="Start from a position of this archive record (its id) …")
@click.option("--ply", default=0, show_default=True, help="… after this ply of its main line.")
@click.option("--depth", type=click.IntRange(min=1), default=1, show_default=True, help="Plies deep.")
@click.option("--format", "format_", type=click.Choice(["table", "json", "tree"]), default="table",
              show_default=True, help="A table (one row per line of plies), JSON (nested), or an indented tree.")
def tree(start: str | None, db: str, record: int | None, ply: int, depth: int, format_: str, **filters) -> None:
    """Every next ply the archive's records played from POSITION (a position string) or from
    --record N --ply K, with the games, their results and dates. Filters as in `query`."""
    if (start is None) == (record is None):
        raise click.UsageError("give a POSITION, or --record N (and --ply K)")
    chosen = filters_of(filters)
    nodes = archive_errors(lambda: Archive(db).tree(start, record, ply, chosen, depth))
    if format_ == "json":
        click.echo(json.dumps([node.as_dict() for node in nodes], indent=2))
        return
    rows = []

    def walk(nodes, line: str, level: int) -> None:
        for node in nodes:
            row = node.as_dict()
            row.pop("children", None)
            row["ply"] = "· " * level + node.ply if format_ == "tree" else (line + " " + node.ply).strip()
            rows.append(row)
            walk(node.children, row["ply"], level + 1)

    walk(nodes, "", 0)
    click.echo(render(rows, "table") if rows else "no plies played from this position\n", nl=False)


@main.group()
def players() -> None:
    """Player names: aliases and the score table."""


@players.command(name="merge")
@click.argument("names", nargs=-1, required=True, metavar="NAME... CANONICAL")
@db_option
def players_merge(names: tuple[str, ...], db: str) -> None:
    """Make every NAME another name of the player CANONICAL (the last name given)."""
    if len(names) < 2:
        raise click.UsageError("give at least one NAME and the CANONICAL name")
    canonical = archive_errors(lambda: Archive(db).merge_players(list(names[:-1]), names[-1]))
    click.echo(f"{', '.join(names[:-1])} → {canonical}")


@filter_options
@players.command(name="list")
@db_option
@click.option("--format", "format_", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
def players_list(db: str, format_: str, **filters) -> None:
    """The score table: each player (canonical name) with games, won, drawn, lost, unfinished,
    score (a win 1, a draw ½) and percentage; filters as in `query`."""
    chosen = filters_of(filters)
    click.echo(render(archive_errors(lambda: Archive(db).players(chosen)), format_), nl=False)


@main.command()
@click.argument("directory")
@db_option
@click.option("--format", "format_", type=click.Choice(["parquet", "csv"]), default="parquet", show_default=True,
              help="Parquet needs pip install 'lusoria[parquet]'; CSV needs nothing.")
def export(directory: str, db: str, format_: str) -> None:
    """Write the archive's tables (records, tags, plies, diagnostics, positions) as files in
    DIRECTORY, for DuckDB, pandas, polars or Spark."""
    counts = archive_errors(lambda: Archive(db).export(directory, format_))
    for table, rows in counts.items():
        click.echo(f"{os.path.join(directory, table)}.{format_}: {plural(rows, 'row')}")


if __name__ == "__main__":
    main()
