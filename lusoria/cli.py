"""The `lusoria` command: a thin click layer over `lusoria.api`."""

from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import click

from lusoria import __version__, api
from lusoria.files import same_file, write_file
from lusoria.terminal import echo
from lusoria.options import MAX_SQL_INTEGER, Bounded, Encoding
from lusoria.formats import FORMATS as SOURCE_FORMATS
from lusoria.notation.sources import STDIN, InputError, Skipped, decoded_text, read_sources, record_at, walk
from lusoria.notation.reader import split_records
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.replay import ERROR, Diagnostic, Report, Verdict
from lusoria.words import plural

paths_argument = click.argument("paths", nargs=-1, required=True, metavar="PATH...")
WINDOW = 60  # characters of a source line shown either side of a diagnostic
MAX_SHOWN = 50  # diagnostics shown per record by `validate` (--json lists them all)
encoding_option = click.option("--encoding", type=Encoding(), default="utf-8", show_default=True,
                               help="Text encoding of the input (e.g. latin-1, cp1252).")


def reading_options(command):
    """--from, and the rules of plain tafl move lists (--variant, --rules); the command gets
    `reading`: the keyword arguments of read_sources."""
    def chosen(ctx, param, value):
        ctx.meta.setdefault("reading", {})[param.name] = value
        return value

    for option in reversed((
            click.option("--from", "from_", type=click.Choice(SOURCE_FORMATS), expose_value=False, callback=chosen,
                         help="Read the input in this format (default: by extension, then content; lgn for -)."),
            click.option("--variant", "move_variant", expose_value=False, callback=chosen, metavar="PRESET",
                         help="Tafl move lists (--from tafl): the Tablut preset they follow (default aage)."),
            click.option("--rules", "move_rules", expose_value=False, callback=chosen, metavar="'KEY=VALUE …'",
                         help="Tafl move lists: option overrides, as in the Rules tag."))):
        command = option(command)
    return command


def reading() -> dict:
    """The read_sources keywords the reading options chose."""
    chosen = click.get_current_context().meta.get("reading", {})
    tags = {"Variant": chosen.get("move_variant") or "aage"}
    if chosen.get("move_rules"):
        tags["Rules"] = chosen["move_rules"]
    return {"format": chosen.get("from_"), "tags": tags}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lusoria")
def main() -> None:
    """Parse, validate and archive game records of Tablut, Ludus latrunculorum and Laquet."""


def show_diagnostic(report: Report | Verdict, diagnostic: Diagnostic) -> str:
    """Compiler-style: file:line:col: severity[rule]: message, the line (a long one cut to
    WINDOW characters either side of the column, as compilers do), a caret."""
    where = f"{report.source.path or '<text>'}:{diagnostic.line}:{diagnostic.column}"
    head = f"{where}: {diagnostic.severity}[{diagnostic.rule}]: {diagnostic.message}"
    text, index = report.source.text, diagnostic.line - report.source.line
    start = 0
    for _ in range(max(index, 0)):
        start = text.find("\n", start) + 1 or len(text) + 1
    if index < 0 or start > len(text) or not diagnostic.column:
        return head
    end = text.find("\n", start)
    line = text[start:end if end >= 0 else len(text)]
    column = diagnostic.column - 1
    width = min(max(1, len(diagnostic.text.split("\n")[0])), WINDOW)
    left, right = (0, len(line)) if len(line) <= 2 * WINDOW else (max(0, column - WINDOW), column + width + WINDOW)
    shown = ("…" if left else "") + line[left:right] + ("…" if right < len(line) else "")
    number = str(diagnostic.line)
    caret = " " * (column - left + bool(left)) + "^" * width
    shown = f"{head}\n {number} | {shown}\n {' ' * len(number)} | {caret}"
    if diagnostic.suggestions:
        shown += f" did you mean {' or '.join(diagnostic.suggestions)}?"
    if diagnostic.assumed:
        shown += f"\n {' ' * len(number)} | (assuming {'; '.join(diagnostic.assumed)})"
    return shown


def record_of(path: str, index: int, encoding: str):
    """Record `index` (0-based) of `path`, or a usage error that says why not."""
    try:
        return record_at(path, index, encoding, **reading())
    except InputError as error:
        click.echo(f"lusoria: {error}", err=True)
        sys.exit(2)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--record") from None


def write_output(output: str, text: str, *inputs: str) -> None:
    """Write a command's `-o` file whole or not at all; never over one of its inputs."""
    if any(same_file(output, path) for path in inputs):
        raise click.BadParameter(f"{output} is an input of this command", param_hint="-o")
    try:
        write_file(output, text)
    except OSError as error:
        click.echo(f"lusoria: cannot write {output}: {(error.strerror or str(error)).lower()}", err=True)
        sys.exit(2)


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--keep-going", is_flag=True,
              help="Past an illegal ply or a syntax slip with one nearest suggestion, go on as if it had been written.")
@click.option("--jobs", "-j", type=Bounded(1, 1024), default=os.cpu_count() or 1,
              show_default="the number of cores",
              help="Worker processes (output keeps the order of the records); at most the number of cores.")
@click.option("--force-jobs", is_flag=True, help="Allow more worker processes than cores.")
@encoding_option
@reading_options
def validate(paths: tuple[str, ...], as_json: bool, strict: bool, keep_going: bool, jobs: int, force_jobs: bool,
             encoding: str) -> None:
    """Check every record of PATH... (files, directories of record files, - for stdin).

    Exit status: 0 when every record is valid, 1 when any is not, 2 when an
    input cannot be read or no record was found at all."""
    records = invalid = errors = warnings = 0
    unreadable = False
    cited: dict[str, None] = {}  # the rules of the diagnostics, in order of appearance
    jobs = jobs if force_jobs else min(jobs, os.cpu_count() or 1)
    for item in api.validate(paths, encoding, strict, jobs, keep_going, **reading()):
        if isinstance(item, Skipped):
            click.echo(f"lusoria: {item}", err=True)
            continue
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
            for diagnostic in item.diagnostics[:MAX_SHOWN]:
                echo(show_diagnostic(item, diagnostic))
            for diagnostic in item.diagnostics:
                cited[diagnostic.rule] = None
            if len(item.diagnostics) > MAX_SHOWN:
                echo(f"{item.source.path or '<text>'}:{item.source.line}: and "
                     f"{plural(len(item.diagnostics) - MAX_SHOWN, 'more diagnostic')} in this record (--json lists all)")
    if not as_json:
        click.echo(f"{plural(records, 'record')}: {records - invalid} valid, {invalid} invalid "
                   f"({plural(errors, 'error')}, {plural(warnings, 'warning')})")
        if cited:
            click.echo(f"rules cited: {', '.join(cited)} (lusoria explain {next(iter(cited))} says what a rule means)")
    if not records and not unreadable:
        click.echo(f"lusoria: no record found in {' '.join(paths)}", err=True)
    sys.exit(2 if unreadable or not records else 1 if invalid else 0)


@main.command()
@paths_argument
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a file is not in canonical form.")
@click.option("--write", is_flag=True, help="Rewrite the files in place (in UTF-8), and list those changed.")
@encoding_option
@reading_options
def fmt(paths: tuple[str, ...], check: bool, write: bool, encoding: str) -> None:
    """Write the records of PATH... in canonical form (to standard output by default).
    Records of other formats come out as lgn; --check and --write apply to lgn files.

    A file keeps its line ends (LF or CRLF) and its byte order mark, or their absence;
    the canonical encoding is UTF-8, so --write turns a file read with another --encoding
    into UTF-8, and --check finds such a file not canonical."""
    if check and write:
        raise click.UsageError("--check and --write exclude each other (--check writes nothing)")
    if write and STDIN in paths:
        raise click.UsageError("--write cannot rewrite standard input")
    status, shown = 0, False

    def canonical(source) -> str:
        nonlocal status
        if (check or write) and source.format != "lgn":
            raise InputError(f"{source.path}: --check and --write apply to lgn files, and this one is "
                             f"{source.format}; lusoria convert writes it as lgn")
        text, report = api.format_record(source)
        if report.record is None:
            status = max(status, 1)
            click.echo(show_diagnostic(report, report.diagnostics[0]), err=True)
        return text.rstrip("\n") + "\n"

    for path in walk(paths):
        if isinstance(path, Skipped):
            click.echo(f"lusoria: {path}", err=True)
            continue
        try:
            original = sys.stdin.buffer.read() if check and path == STDIN else None  # compared once read
            sources = read_sources(path, encoding, **reading()) if original is None else \
                split_records(decoded_text(io.BytesIO(original), "<stdin>", encoding), "<stdin>")
            if not check and not write:
                for source in sources:  # streamed: one record at a time; files apart by a blank line
                    echo(("\n" if shown else "") + canonical(source), nl=False)
                    shown = True
                continue
            formatted = "\n".join(canonical(source) for source in sources)
        except InputError as error:
            click.echo(f"lusoria: {error}", err=True)
            status = 2
            continue
        original = original if path == STDIN else Path(path).read_bytes()
        rewritten = api.like_file(formatted, original)
        if rewritten == original:
            continue
        if check:
            click.echo(f"{path}: not in canonical form")
            status = max(status, 1)
            continue
        try:
            write_file(path, rewritten.decode("utf-8"))
        except OSError as error:
            click.echo(f"lusoria: cannot write {path}: {(error.strerror or str(error)).lower()}", err=True)
            status = 2
            continue
        click.echo(f"{path}: rewritten")
    sys.exit(status)


@main.command()
@click.argument("path")
@click.option("--record", "index", type=Bounded(), default=0, show_default=True,
              help="Which record of the file (0-based).")
@click.option("--ply", type=Bounded(), help="Show the board after this ply of the main line (default: the last).")
@click.option("--format", "format_", type=click.Choice(["text", "svg"]), default="text", show_default=True,
              help="The board as text, or as an SVG diagram.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@encoding_option
@reading_options
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
        write_output(output, drawing + "\n", path)
    else:
        click.echo(drawing)


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@encoding_option
@reading_options
def rules(paths: tuple[str, ...], as_json: bool, encoding: str) -> None:
    """For each record of PATH..., the rule sets under which it is legal: its own, or the
    fewest changes of variant and options (docs/rules.md; lusoria explain) that make it legal."""
    status = 0
    for item in api.fitting(paths, encoding, **reading()):
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
            echo(f"{where}: {fit}")
    sys.exit(status)


@main.command()
@click.argument("rule_id", metavar="RULE", required=False)
def explain(rule_id: str | None) -> None:
    """Print a rule that diagnostics cite (T2, S4, Q6, syntax…; any case): its text, the
    options that change it and an example. Without RULE, list every rule."""
    from lusoria import rulebook

    if rule_id is None:
        for rule in rulebook.rules():
            click.echo(f"{rule.id:<7} {rule.game:<11} {rule.title}")
        return
    try:
        click.echo(rulebook.explain(rule_id))
    except KeyError as error:
        raise click.BadParameter(error.args[0], param_hint="RULE") from None


@main.command()
@click.argument("path")
@click.option("--record", "index", type=Bounded(), default=0, show_default=True,
              help="Which record of the file (0-based).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@encoding_option
@reading_options
def html(path: str, index: int, output: str | None, encoding: str) -> None:
    """Write a self-contained HTML page that replays a record of PATH (← → to step; #ply=N opens a ply)."""
    from lusoria.html import replay_page

    page = replay_page(record_of(path, index, encoding))
    if output:
        write_output(output, page, path)
    else:
        click.echo(page, nl=False)


@main.command()
@paths_argument
@click.option("--to", "to", type=click.Choice(["lgn", "otn"]), required=True, help="The format to write.")
@click.option("--output-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write each record to its own file in DIR (needed for OTN, one game per file, "
                   "when there are several records).")
@encoding_option
@reading_options
def convert(paths: tuple[str, ...], to: str, output_dir: str | None, encoding: str) -> None:
    """Write the records of PATH... (any format lusoria reads) as lgn or OTN (OpenTafl).

    Exit status: 0 when every record was converted, 1 when some could not be, 2 when an
    input cannot be read or no record was found."""
    from lusoria.formats.convert import Converted, convert as converted

    results = list(converted(paths, to, encoding, **reading()))
    records = [item for item in results if isinstance(item, Converted)]
    if to == "otn" and not output_dir and sum(item.text is not None for item in records) > 1:
        raise click.UsageError("OTN holds one game per file: give --output-dir for several records")
    status, written = 0, []
    for item in results:
        if isinstance(item, (Skipped, InputError)):
            click.echo(f"lusoria: {item}", err=True)
            status = max(status, 2 if isinstance(item, InputError) else 0)
        elif item.text is None:
            click.echo(f"lusoria: {item.source.path or '<stdin>'}:{item.source.line}: record {item.source.index} "
                       f"not converted: {item.problem}", err=True)
            status = max(status, 1)
        elif output_dir:
            name = f"{Path(item.source.path or 'stdin').stem}-{item.source.index + 1}.{'otg' if to == 'otn' else 'lgn'}"
            Path(output_dir).mkdir(parents=True, exist_ok=True)
            (Path(output_dir) / name).write_text(item.text, "utf-8")
            click.echo(f"wrote {Path(output_dir) / name}")
        else:
            written.append(item.text.rstrip("\n") + "\n")
    click.echo("\n".join(written), nl=False)
    if not records:
        click.echo(f"lusoria: no record found in {' '.join(paths)}", err=True)
        status = 2
    sys.exit(status)


@main.command()
@click.option("--game", required=True, type=click.Choice(sorted(GAMES), case_sensitive=False), help="Which game.")
@click.option("-n", "--count", "count", type=Bounded(1), default=1, show_default=True, help="How many games.")
@click.option("--seed", default=0, show_default=True, help="The same seed gives the same games.")
@click.option("--variant", help="A named rule preset.")
@click.option("--rules", help="Option overrides, as in the Rules tag: 'key=value …'.")
@click.option("--board", help="Latrunculi: the board size, as in the Board tag (WxH).")
@click.option("--max-plies", type=Bounded(), default=200, show_default=True, help="Stop a game (result *) after this many plies.")
def random(game: str, count: int, seed: int, variant: str | None, rules: str | None, board: str | None,
           max_plies: int) -> None:
    """Write random legal games."""
    tags = {name: value for name, value in (("Variant", variant), ("Rules", rules), ("Board", board)) if value}
    try:
        for index, text in enumerate(api.random_records(game, count, seed, tags, max_plies)):
            click.echo(("\n" if index else "") + text, nl=False)
    except OptionError as error:
        raise click.UsageError(str(error)) from None


def default_db() -> str:
    """The archive commands' default --db (the archive is imported only by the commands that use it)."""
    from lusoria.archive import default_path

    return default_path()


FORMATS = ("table", "json", "csv", "lgn")  # lusoria.archive.query.FORMATS, without importing the archive
SQL_TIMEOUT = 60  # lusoria.archive.reading.DEFAULT_TIMEOUT, without importing the archive
db_option = click.option("--db", "db", default=default_db, show_default="$LUSORIA_DB or lusoria.db",
                         help="The archive (a SQLite file).")
format_option = click.option("--format", "format_", type=click.Choice(FORMATS), default="table", show_default=True,
                             help="table, json, csv, or lgn (the records themselves, ready for lusoria validate).")


def echo_pieces(pieces) -> None:
    """Write output as it comes (rows are streamed, not held)."""
    for piece in pieces:
        echo(piece, nl=False)


def archive_errors(action):
    """Run `action`, turning archive problems into clear messages and exit statuses."""
    from lusoria.archive import ImportStopped, NotAnArchive, ReadOnlyError

    try:
        return action()
    except (NotAnArchive, ImportStopped) as error:
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
@reading_options
def import_(paths: tuple[str, ...], db: str, encoding: str) -> None:
    """Check the records of PATH... and store them all, valid or not, in the archive.

    A record already in the archive (the same text) is skipped. A record read from another
    format is stored in lusoria's notation, with its format (tag SourceFormat) and path.
    A progress bar shows on a terminal. Exit status 2 when an input cannot be read or no
    record was found at all."""
    from lusoria.archive import Archive

    found = list(walk(paths))
    for skipped in (p for p in found if isinstance(p, Skipped)):
        click.echo(f"lusoria: {skipped}", err=True)
    files = [p for p in found if isinstance(p, str) and p != STDIN]
    if sys.stderr.isatty() and STDIN not in paths:
        with click.progressbar(length=sum(Path(p).stat().st_size for p in files if Path(p).exists()),
                               label="importing", file=sys.stderr) as bar:
            summary = archive_errors(lambda: Archive(db).import_paths(paths, encoding, progress=bar.update,
                                                                      **reading()))
    else:
        summary = archive_errors(lambda: Archive(db).import_paths(paths, encoding, **reading()))
    for problem in summary.unreadable:
        click.echo(f"lusoria: {problem}", err=True)
    click.echo(f"{db}: {replace(summary, unreadable=[])}")  # the unreadable sources went to stderr above
    if not summary.added and not summary.duplicates and not summary.unreadable:
        click.echo(f"lusoria: no record found in {' '.join(paths)}", err=True)
    sys.exit(2 if summary.unreadable or not (summary.added or summary.duplicates) else 0)


def filters_of(options: dict):
    """The Filters that the filter options of `query` (shared by `tree` and `players list`) ask for."""
    from lusoria.archive import Filters

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
@click.option("--limit", type=Bounded(0, MAX_SQL_INTEGER), help="At most this many records.")
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
    from lusoria.archive import Archive
    from lusoria.archive.query import COLUMNS, TABLE_COLUMNS, render_pieces

    chosen = filters_of(filters)
    searched = chosen.position or chosen.pattern or chosen.positions or chosen.material
    columns = (TABLE_COLUMNS if format_ == "table" else COLUMNS) + (["ply"] if searched else [])
    archive_errors(lambda: echo_pieces(render_pieces(Archive(db).iter_query(chosen), format_, columns)))


@main.command()
@click.argument("sql")
@db_option
@format_option
@click.option("--timeout", type=Bounded(0, 10 ** 6), default=SQL_TIMEOUT, show_default=True,
              help="Stop the statement after this many seconds (0: no limit). Ctrl-C stops it too.")
def sql(sql: str, db: str, format_: str, timeout: int) -> None:
    """Run read-only SQL on the archive (writes, ATTACH and PRAGMA settings are refused)."""
    from lusoria.archive import Archive
    from lusoria.archive.query import render_pieces

    archive_errors(lambda: echo_pieces(render_pieces(Archive(db).iter_sql(sql, timeout or None), format_)))


@main.command()
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--db", help="Look in this archive instead of files.")
@encoding_option
def duplicates(paths: tuple[str, ...], db: str | None, encoding: str) -> None:
    """Records of PATH... (or of the archive --db) that are the same game as an earlier one,
    or a prefix of a longer one (docs/archive.md says what counts).

    Exit status: 0 when there is none, 1 when there are, 2 when an input cannot be read."""
    from lusoria.archive import Archive

    if bool(paths) == bool(db):
        raise click.UsageError("give files (PATH...) or an archive (--db), not both or neither")
    found = archive_errors(lambda: Archive(db).duplicates()) if db else api.duplicates(paths, encoding)
    same = prefixes = unreadable = 0
    for item in found:
        if isinstance(item, InputError):
            click.echo(f"lusoria: {item}", err=True)
            unreadable = 1
            continue
        click.echo(str(item))
        same += item.kind == "same"
        prefixes += item.kind == "prefix"
    click.echo(f"{plural(same, 'duplicate')}, {plural(prefixes, 'prefix', 'prefixes')}")
    sys.exit(2 if unreadable else 1 if same or prefixes else 0)


@main.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON.")
def stats(db: str, as_json: bool) -> None:
    """Counts per game, variant and result, validity, plies, players and first errors."""
    from lusoria.archive import Archive
    from lusoria.archive.query import render

    figures = archive_errors(lambda: Archive(db).stats())
    if as_json:
        echo(json.dumps(figures, indent=2))
        return
    plies = figures["plies"]
    echo(f"{plural(figures['records'], 'record')}: {figures['valid']} valid, {figures['invalid']} invalid; "
         f"plies: mean {plies['mean']}, median {plies['median']}, max {plies['max']}")
    for key, title in (("games", "game"), ("variants", "variant"), ("results", "result"),
                       ("players", "player"), ("first_error_rules", "first error rule")):
        if figures[key]:
            echo("\n" + render([{title: row["value"], "records": row["records"]} for row in figures[key]],
                                "table"), nl=False)


@main.command()
def lsp() -> None:
    """Serve the Language Server Protocol over stdio, for editors (docs/editors.md)."""
    try:
        from lusoria.lsp import serve
    except ImportError as error:
        raise click.ClickException(f"{error}: install the server with pip install 'lusoria[lsp]'") from None
    serve()


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
@click.option("--variations", is_flag=True, help="Count the plies of variations too, not only of main lines.")
def tree(start: str | None, db: str, record: int | None, ply: int, depth: int, format_: str, variations: bool,
         **filters) -> None:
    """Every next ply the archive's records played from POSITION (a position string) or from
    --record N --ply K, with the games, their results and dates. Filters as in `query`."""
    from lusoria.archive import Archive
    from lusoria.archive.query import render

    if (start is None) == (record is None):
        raise click.UsageError("give a POSITION, or --record N (and --ply K)")
    chosen = filters_of(filters)
    nodes = archive_errors(lambda: Archive(db).tree(start, record, ply, chosen, depth, variations))
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
    from lusoria.archive import Archive

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
    from lusoria.archive import Archive
    from lusoria.archive.query import render

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
    from lusoria.archive import Archive

    counts = archive_errors(lambda: Archive(db).export(directory, format_))
    for table, rows in counts.items():
        click.echo(f"{os.path.join(directory, table)}.{format_}: {plural(rows, 'row')}")


if __name__ == "__main__":
    main()
