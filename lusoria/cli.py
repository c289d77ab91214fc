"""The `lusoria` command: a thin click layer over `lusoria.api`."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import itertools
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO, TypeVar, cast

import click

from lusoria import __version__, build, output
from lusoria.files import cannot_write
from lusoria.options import (
    JOBS,
    Advised,
    Bounded,
    Encoding,
    GameNamed,
    LazyDefault,
    Named,
    former_name,
)
from lusoria.terminal import (
    OutputFailed,
    WhileItTakes,
    clicks_output_failed,
    echo,
    escaped,
    output_closed_taken,
    unescaped,
    written_in_utf8,
)
from lusoria.words import COMMAND, plural, quoted, reason, undecoded

if TYPE_CHECKING:
    from lusoria import api
    from lusoria.api import Problem
    from lusoria.archive import Archive, UnsearchableRecord
elif "lusoria.api" in sys.modules:
    api = sys.modules["lusoria.api"]
else:  # loaded when a command first uses it: `lusoria --version` and `--help` start without it
    _found = importlib.util.find_spec("lusoria.api")
    _found.loader = importlib.util.LazyLoader(_found.loader)
    api = sys.modules["lusoria.api"] = importlib.util.module_from_spec(_found)
    _found.loader.exec_module(api)
    sys.modules["lusoria"].api = api  # as an import binds a module to its package

T = TypeVar("T")


def as_paths(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """The command line's PATH (or PATH...) as paths: `[old].lgn` is a file, where the library reads
    a string that starts with `[` as a record's text (notation.sources.is_text)."""
    if isinstance(value, tuple):
        return tuple(as_paths(ctx, param, each) for each in value)
    return Path(value) if isinstance(value, str) and value.startswith("[") else value


paths_argument = click.argument("paths", nargs=-1, required=True, metavar="PATH...", callback=as_paths)
MAX_SHOWN = 50  # diagnostics shown per record by `validate` (--json lists them all)
MAX_POSITIONS = 1 << 24  # characters of a --positions file (16 Mi: 100,000 positions of Copenhagen)
encoding_option = click.option(
    "--encoding",
    type=Encoding(),
    default="utf-8",
    show_default=True,
    help="Text encoding of the input (e.g. latin-1, cp1252).",
)


def with_options(command: Callable, *options: Callable) -> Callable:
    """The command with `options` (click decorators), in the order given, as if written above it."""
    for option in reversed(options):
        command = option(command)
    return command


def reading_options(command):
    """--from, and the game and rules of records whose files do not say them (--game, --variant,
    --rules); the command gets `reading`: the keyword arguments of read_sources."""

    def chosen(ctx, param, value):
        ctx.meta.setdefault("reading", {})[param.name] = value
        return value

    return with_options(
        command,
        click.option(
            "--from",
            "from_",
            type=Named(lambda: api.source_formats()),
            expose_value=False,
            callback=chosen,
            help="Read the input in this format (default: by extension, then content, and - by content alone; else lgn).",
        ),
        click.option(
            "--game",
            "move_game",
            type=GameNamed(lambda: api.known_games()),
            expose_value=False,
            callback=chosen,
            help="The game of records whose files do not say it: tafl move lists, CSV files, "
            "aagenielsen.dk games of a type lusoria does not know or play, lgn records with no Game tag "
            "(a note says which files these options are not applied to).",
        ),
        click.option(
            "--variant",
            "move_variant",
            expose_value=False,
            callback=chosen,
            metavar="PRESET",
            help="The preset those records follow (default: their format's; CSV files: with --game).",
        ),
        click.option(
            "--rules",
            "move_rules",
            expose_value=False,
            callback=chosen,
            metavar="'KEY=VALUE …'",
            help="The same records: option overrides, as in the Rules tag.",
        ),
    )


def format_choice(choices: list[str] | tuple[str, ...], help: str, advice: dict[str, str] | None = None) -> Callable:
    """The `--format` option of a command: one of `choices`, the first by default; a format it does not
    write that `advice` names is refused with its words (`Advised`)."""
    return click.option(
        "--format", "format_", type=Advised(choices, advice or {}), default=choices[0], show_default=True, help=help
    )


def sort_choice(default: str, help: str) -> Callable:
    """The `--sort` option of a table (`tree`, `players list`): the most games first, or the best
    scores, `default` unless given."""
    return click.option("--sort", type=click.Choice(["games", "score"]), default=default, show_default=True, help=help)


def cores() -> int:
    """The cores lusoria may run on: those the process is bound to (`taskset`, a container's cpuset), not all the
    machine's (h81b: a run bound to one of eight started eight workers)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def jobs_options(command, needs: str = "", work: str = "check the records"):
    """--jobs and --force-jobs: the command gets `jobs`, the worker processes that do its `work` (as
    its help says it), at most the number of cores unless forced; their help says the option they
    `needs` (show's and html's --output-dir: `output_dir_given`)."""

    def said(help: str) -> str:
        return f"With {needs}: {help}" if needs else help[0].upper() + help[1:]

    def forced(ctx, param, value):
        ctx.meta["force_jobs"] = value

    def capped(ctx, param, value):
        return value if ctx.meta.get("force_jobs") else min(value, cores())

    command = click.option(
        "--force-jobs",
        is_flag=True,
        is_eager=True,
        expose_value=False,
        callback=forced,
        help=said("allow more worker processes than cores."),
    )(command)
    return click.option(
        "--jobs",
        "-j",
        type=JOBS,
        default=cores,
        callback=capped,
        show_default="the number of cores",
        help=said(
            f"worker processes that {work} (taken in their order all the same): a whole number from 1 to "
            f"{JOBS.high}, no more than the number of cores used unless --force-jobs."
        ),
    )(command)


def reading(searching: bool = False) -> dict:
    """The read_sources keywords the reading options chose, as given (`records` takes --variant by any
    name `lusoria explain` knows: `api.reading_tags`). A --variant or --rules that chooses no rules
    (of --game) is a usage error, said once (not an error of every record read with them); but
    `searching` (`lusoria rules`, which tries each variant), a --game whose boards are its variants
    needs no --variant (records that cannot be read without one say so, each)."""
    chosen = click.get_current_context().meta.get("reading", {})
    options = (("Game", "move_game"), ("Variant", "move_variant"), ("Rules", "move_rules"))
    given = {tag: chosen[option] for tag, option in options if chosen.get(option)}
    if "Variant" in given and (refused := api.variant_refused(given["Variant"], given.get("Game"))):
        raise click.BadParameter(refused, param_hint="--variant")
    tags = api.reading_tags(given)
    game = api.GAMES[name] if (name := tags.get("Game", "").lower()) in api.GAMES else None
    if "Game" in tags and not (searching and game and game.described and "Variant" not in tags):
        chosen_rules(tags)
    return {"format": chosen.get("from_"), "tags": given or None}


def reading_given() -> list[str]:
    """The reading options given (`--game`, `--from`…), as the command's help names them."""
    ctx = click.get_current_context()
    chosen = ctx.meta.get("reading", {})
    return [param.opts[0] for param in ctx.command.params if chosen.get(param.name or "")]


def chosen_rules(tags: dict[str, str]) -> api.Game:
    """The rules that options (--game, --variant, --rules: as the tags `Game`, `Variant`, `Rules`)
    choose; a usage error, said once, for a game, variant or rules lusoria does not know (naming the
    games that have the variant)."""
    try:
        game = api.GAMES[tags["Game"].lower()]
    except KeyError as unknown:  # (the registry's message: the games, and those most like it)
        raise click.BadParameter(unknown.args[0], param_hint="--game") from None
    try:
        return api.rules_from_tags(game, tags)
    except api.OptionError as error:
        raise options_error(error) from None


def options_error(error: api.OptionError) -> click.BadParameter:
    """The usage error of options (--variant, --rules, --board) that choose no rules: each of their
    problems (one hides none of the others), at its option."""
    option = {"Variant": "--variant", "Rules": "--rules", "Board": "--board"}
    also = "".join(f"\n{option.get(other.tag, '--game')}: {_as_option(other)}" for other in error.also)
    return click.BadParameter(f"{_as_option(error)}{also}", param_hint=option.get(error.tag, "--game"))


def _as_option(problem: api.OptionError) -> str:
    """A problem of a tag in the terms of its command-line option: --board for a game that takes
    none says what to give instead (a variant of that board's size, for a game whose variants name
    its boards)."""
    if not isinstance(problem, api.BoardNotTaken):
        return str(problem)
    game, several = api.GAMES[problem.game], "only games played on boards of several sizes take it"
    if not game.described:
        size = game().board_size()
        return f"{several}: {game.name} has one board{f' ({size})' if size else ''}, leave --board out"
    found = game.variants_of_board(problem.board)
    example = f"one of {problem.board}: --variant {found[0]}" if found else f"none is played on {problem.board}"
    return f"{several}: {game.name} names its board by its variant, use --variant instead ({example})"


DEBUG_SWITCH = "LUSORIA_DEBUG"
INTERNAL_ERROR = 3  # the exit status of a bug in lusoria: never taken for "a record is invalid" (1)


class Lusoria(click.Group):
    """The command group. An exception no command expects is a bug in lusoria: it ends the
    command with one line that names the record being checked and asks for a report, and
    status INTERNAL_ERROR; one raised in a plug-in's game is its bug, said naming it (status 2);
    `--debug` (or LUSORIA_DEBUG=1) lets its traceback through instead."""

    debug = False

    @property
    def help(self) -> str | None:
        """The group's help, GAMES in it the names of the games there are (asked for when shown)."""
        return self._help.replace("GAMES", ", ".join(api.known_games())) if self._help else self._help

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = text

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            made = click.Context(command, info_name=name, parent=ctx, resilient_parsing=ctx.resilient_parsing)
            game_as_word(command, made, rest)
        return name, command, rest

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # (click's parser takes the words from `args` as it reads them)
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            raise after_the_command(self, ctx, error, given) from None

    interrupted = False  # a command stopped by ^C (`__call__`)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            returned = super().invoke(ctx)
        except KeyboardInterrupt:
            self.interrupted = True  # (click says Aborted! and ends 1)
            raise
        except SystemExit as exited:  # (a command that ends with sys.exit)
            if ctx.meta.get(UNSEARCHED) and not exited.code:
                sys.exit(1)  # (a record of --records left out: `searchable`)
            raise
        except click.NoSuchOption as error:  # (a command's: `show --move 3`)
            meant = OPTIONS_MEANT.get(error.option_name)
            if meant and error.ctx and any(meant in option.opts for option in error.ctx.command.get_params(error.ctx)):
                raise click.UsageError(f"{error.message} Did you mean '{meant}'?", error.ctx) from None
            raise
        if ctx.meta.get(UNSEARCHED):
            sys.exit(1)
        return returned

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The command run as a process (a test's CliRunner calls `main`): stopped by SIGTERM, once tidied
        (`StoppedBySigterm`), the process ends by SIGTERM, as a shell (143) and a service manager (a clean
        stop, where 143 is a failure) take it; by ^C, once click has said Aborted!, by SIGINT, as Python ends
        (a shell says 130, and stops the loop that ran it: note81, status 1 went on to the loop's next file)."""
        import signal

        written_in_utf8()
        try:
            return self.main(*args, **kwargs)
        except StoppedBySigterm:
            os.kill(os.getpid(), signal.SIGTERM)  # (SIG_DFL again: `stopped_by_signal`; `echo` flushed)
            raise  # (SIGTERM blocked, or PID 1 of a container, which it does not end: 143 all the same)
        except SystemExit:
            if self.interrupted:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGINT)
            raise  # (SIGINT blocked: status 1, as click ends)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        self.debug = os.environ.get(DEBUG_SWITCH, "") not in ("", "0")
        self.interrupted = False
        with escaped():
            try:
                return super().main(*args, **kwargs)
            except MemoryError as error:  # an input too large for the memory there is: not a bug
                if self.debug:
                    raise
                stop(while_checking("the input is too large for the memory available", error))
            except OutputFailed as error:
                output_failed(error)
            except SystemExit as error:  # a plug-in's sys.exit(), where no check of its hook said it, is its failure
                if not (said := plug_in_exit(error)):
                    raise  # lusoria's own exit status
                stop(while_checking(said, error) + traced("".join(traceback.format_exception(error)).rstrip()))
            except Exception as error:
                if failed := clicks_output_failed(error):
                    output_failed(failed)
                if self.debug:
                    raise
                if isinstance(error, api.DataError):  # its own data or the user's: an entry a user added may be wrong
                    stop(f"{error}. {error.advice or data_report()}", INTERNAL_ERROR)
                if said := api.failed_plug_in(error):  # a plug-in's bug, where no check of its hook said it
                    stop(while_checking(said, error))
                stop(internal_error(error), INTERNAL_ERROR)


OPTIONS_MEANT = {"--move": "--ply", "--moves": "--ply", "--format": "--json"}  # what a newcomer writes for an option


def after_the_command(
    group: click.Group, ctx: click.Context, error: click.NoSuchOption, args: list[str]
) -> click.UsageError:
    """The usage error of an option not lusoria's own given before the command (`lusoria --json validate`):
    when the command named after it takes it, that it goes after the command; else click's."""
    named = command_named(group, ctx, args)
    command = group.commands.get(named or "")
    if command is None or not any(
        error.option_name in option.opts + option.secondary_opts for option in command.get_params(ctx)
    ):
        return error
    return click.UsageError(
        f"{error.option_name} is an option of {named}, not of lusoria: it goes after the command "
        f"(lusoria {named} {error.option_name} …)",
        ctx,
    )


def command_named(group: click.Group, ctx: click.Context, args: list[str]) -> str | None:
    """The first word of `args` that names a command of `group` and is no option's value: the words
    after an option that takes values in any command (`--db`) are its values (`lusoria --db import
    query`: query, not import)."""
    values = {
        name: option.nargs
        for command in itertools.chain([group], group.commands.values())
        for option in command.get_params(ctx)
        if isinstance(option, click.Option) and not option.is_flag and not option.count
        for name in option.opts
    }
    words = iter(args)
    for word in words:
        if word in group.commands:
            return word
        for _ in range(values.get(word, 0)):
            next(words, None)
    return None


def game_as_word(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """A usage error for a game named as a word where `command` takes it as --game (`lusoria random
    latrunculi`): what was meant, before click says the option is missing."""
    if ctx.resilient_parsing or not any("--game" in option.opts for option in command.get_params(ctx)):
        return  # (shell completion parses resiliently: no error)
    given, words, _ = command.make_parser(ctx).parse_args(list(args))
    if given.get("game") is not None or set(args) & set(ctx.help_option_names) or not words:
        return  # (the games are asked for only then: `validate FILE` loads none here; --help is help)
    games = {game.lower(): game for game in api.known_games()}
    named = next((games[word.strip().lower()] for word in words if word.strip().lower() in games), None)
    if named is not None:
        raise click.UsageError(f"a game is given as an option, not a word: did you mean --game {named}?", ctx)
    ruled = any("--rules" in option.opts for option in command.get_params(ctx))
    said = next(filter(None, (api.variant_as_game(word, filters=not ruled) for word in words)), "")
    if said:  # (`lusoria random linnaeus`: the options that name it, as `--game linnaeus` says them)
        raise click.UsageError(f"a game is given as an option, not a word{said}", ctx)


def plug_in_exit(error: SystemExit) -> str | None:
    """What a plug-in game's sys.exit() says, naming it (`failed_plug_in`); None for lusoria's own
    exit, and without asking once no game was loaded (`--version`: the library is not loaded)."""
    return api.failed_plug_in(error) if "lusoria.validator.games" in sys.modules else None


def while_checking(said: str, error: BaseException) -> str:
    """What is said of `error`, and the record being checked when it was raised, if one was."""
    place = api.place_of(error)
    return f"{said} (while checking {place})" if place else said


def debugging() -> bool:
    """Whether the command runs with --debug (or LUSORIA_DEBUG=1): its group's, once it has ended too."""
    context = click.get_current_context(silent=True)
    root = context.find_root().command if context else main
    return isinstance(root, Lusoria) and root.debug


def traced(trace: str) -> str:
    """With --debug, a traceback (of a plug-in's failure) on the lines after what is said of it; else ""."""
    return f"\n{trace}" if trace and debugging() else ""


def internal_error(error: Exception) -> str:
    """What the command says of a bug: where, what, and where to report it."""
    place = api.place_of(error)
    where = f" while checking {place}" if place else ""
    return f"internal error{where}: {type(error).__name__}: {error}. {bug_report()}"


def data_report() -> str:
    """What a command says after a data file installed with lusoria was found wrong: mend what was
    changed there, else report it."""
    return f"The file is lusoria's own data, not a record: mend the entry if you added or changed it; if not, {where_to_report()}"


def bug_report() -> str:
    """What a command says after a bug: where to report it, and how to see its traceback."""
    return f"This is a bug in lusoria, not in the records: {where_to_report()}"


def where_to_report() -> str:
    """Where to report a bug, and how to see its traceback."""
    from importlib import metadata

    urls = dict(url.split(", ", 1) for url in metadata.metadata("lusoria").get_all("Project-URL") or [])
    report = urls.get("Issues", "the project's issue tracker")
    return f"please report it at {report} with the file (run with --debug or {DEBUG_SWITCH}=1 for the traceback)"


def debug_requested(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        main.debug = True  # the option is the group's own


def show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--version: the version and what runs (compiled, or pure Python and why)."""
    if value and not ctx.resilient_parsing:
        echo(f"lusoria, version {__version__} ({build()})")
        ctx.exit()


@click.group(cls=Lusoria, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=show_version,
    help="Show the version and exit.",
)
@click.option(
    "--debug",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=debug_requested,
    help=f"Show the traceback of an internal error (as {DEBUG_SWITCH}=1 does).",
)
def main() -> None:
    """Parse, validate and archive records of ancient board games: GAMES.

    Exit status: 0 success (every record valid), 1 a record is invalid (or what a command's help
    says: its output cut short, a pipe to head closed, too), 2 an input cannot be read or a usage
    error, 3 an internal error (a bug in lusoria: please report it) or a catalogue of tafl variants
    found wrong (lusoria's, or the user's own); stopped by Ctrl-C, the process ends by SIGINT (a shell
    says 130), but serve, which Ctrl-C stops, ends 0."""


HINTS = {
    "archive": "; create it with lusoria import",
    "timeout": " (see --timeout)",
    "pyarrow": ": pip install 'lusoria[parquet]' (or use --format csv)",
}


READING_OPTIONS = {  # by the tag each gives; --replace and --encoding by their keywords
    "Game": "--game",
    "Variant": "--variant",
    "Rules": "--rules",
    "replace=True": "--replace",
    "encoding": "--encoding",
}


def hinted(problem: object) -> str:
    """The library's message, and the option or command that may help (`parameter`: of the library
    call; with the values of it to try, `tries`: `--encoding latin-1`); a note's reading settings
    named by their options (`READING_OPTIONS`)."""
    said = problem.said(READING_OPTIONS) if isinstance(problem, api.Note) else str(problem)
    parameter = getattr(problem, "parameter", None) or ""
    if isinstance(problem, (api.InputError, api.Unreadable)) and problem.tries:
        return problem.advised(to=COMMAND)
    return f"{said}{HINTS.get(parameter, '')}"


class Inputs:
    """The one place where commands meet inputs that cannot be read, files skipped in a
    directory and notes (lusoria.pipeline's problems): each is said on standard error, in its place;
    `unreadable` tells whether a source could not be read (exit status 2), `problems` lists them
    all. A worker process killed stops the command, also with status 2."""

    def __init__(self, problems: Iterable[Problem] = ()) -> None:
        self.problems = list(problems)  # those met so far (an import's: said as it met them)
        self.unreadable = any(isinstance(problem, api.Unreadable) for problem in self.problems)

    def __call__(self, items: Iterable[T | Problem]) -> Iterator[T]:
        try:
            for item in items:
                if isinstance(item, api.Problem):
                    self.unreadable |= isinstance(item, api.Unreadable)
                    self.problems.append(item)
                    echo(f"lusoria: {hinted(item)}{traced(getattr(item, 'trace', ''))}", err=True)
                else:
                    yield item
        except api.WorkerLost as error:  # what came before stands: the verdicts said, the batches imported
            stop(str(error))

    def sums_up(self, paths: tuple[str | Path, ...], read: int = 0) -> bool:
        """Whether a command sums up what it read of `paths` (validate, import, duplicates): unless none
        could be read, each said as it could not (no summary of nothing); a file whose records were read
        beside a byte in a line none of them holds was read, and so were the records of one that stops at a
        line too long (h72b; review73: `duplicates` summed them up only when it found one the same); `read`
        records, any, are summed up (an import's of a file it reads no further, `importer.misread_refused`)."""
        unread = {
            p.path for p in self.problems if isinstance(p, api.Unreadable) and not (p.records_read or p.some_read)
        }
        return bool(read) or not paths or not {os.fsdecode(path) for path in paths} <= unread

    def finish(self, paths: tuple[str | Path, ...], records: int, status: int) -> NoReturn:
        """End a command that read the `records` of `paths`: with status 2 when an input could not be
        read or none held a record (said), else `status`."""
        if not records and not self.unreadable:
            say_no_record(paths)
        sys.exit(2 if self.unreadable or not records else status)


def stop(message: str, status: int = 2) -> NoReturn:
    """End the command with `status`, saying `message` on standard error: where that cannot be written (a
    full disk, a closed pipe), with the status all the same (review72: a traceback, exit 1)."""
    with contextlib.suppress(OutputFailed, OSError):
        echo(f"lusoria: {message}", err=True)
    sys.exit(status)


def output_failed(error: OutputFailed) -> NoReturn:
    """End a command whose output cannot be written: a usage error (status 2), said on standard error
    when it is standard output that failed."""
    if error.stream == "standard output":
        stop(str(error))
    sys.exit(2)


@contextlib.contextmanager
def record_of(path: str | Path, index: int, encoding: str) -> Iterator[api.RecordText]:
    """Record `index` (0-based) of `path`, or a usage error that says why not; after what the
    command says of it (an error too), the notes `validate` says of it on stderr (a reading option
    it does not follow, its game type refused and how to read it)."""
    chosen, blank = reading(), list[api.Problem]()
    read = {**chosen, "tags": api.reading_tags(chosen["tags"] or {}) or None}  # (record_at: the tags as applied)
    try:
        record = api.record_at(path, index, encoding, **read, blank=partial(blank.append, api.empty_note(path)))
    except api.InputError as error:
        stop(hinted(error) + traced(error.trace))
    except api.NoSuchRecord as error:
        if index == 0:  # no record at all: said as validate says it, not of a --record not given
            list(Inputs()(blank))  # an empty file's note first
            say_no_record((path,))
            sys.exit(2)
        raise click.BadParameter(str(error), param_hint="--record") from None
    try:
        yield record
    finally:
        for note in api.notes_on(record, chosen["tags"]):
            echo(f"lusoria: {hinted(note)}", err=True)
        if _record_not_chosen() and os.path.isfile(path):  # (read again: not standard input, not a pipe)
            second = _second_record(path, encoding, read)
            if second is not None:
                echo(
                    f"lusoria: note: {api.shown_path(str(path))} holds more records than this one, record 0 "
                    "(--record N picks another)",
                    err=True,
                )


def _second_record(path: str | Path, encoding: str, read: dict[str, Any]) -> api.RecordText | None:
    """The second record of the file `path`, if it has one; a byte that did not decode outside every
    record (a `%` line after the first) is said on standard error, of the file, not of the record shown."""
    try:
        return next(itertools.islice(api.read_sources(path, encoding, **read), 1, None), None)  # read no more
    except api.InputError as error:
        echo(f"lusoria: {hinted(error)}", err=True)
        return None


def _given(name: str) -> bool:
    """Whether the command's option `name` was given on the command line."""
    return click.get_current_context().get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE


def _record_not_chosen() -> bool:
    """Whether the command's --record was left at its default (the file's first record)."""
    context = click.get_current_context()
    return context.get_parameter_source("index") == click.core.ParameterSource.DEFAULT


def say_no_record(paths: tuple[str | Path, ...]) -> None:
    """What a command says when PATH... held no record."""
    echo(f"lusoria: no record found in {' '.join(map(str, paths))}", err=True)


def write_output(output: str, text: str, *inputs: str | Path) -> None:
    """Write a command's `-o` file whole or not at all; never over one of its inputs."""
    from lusoria.files import same_file, write_file

    if any(same_file(output, path) for path in inputs):
        raise click.BadParameter(f"{output} is an input of this command", param_hint="-o")
    try:
        write_file(output, text)
    except OSError as error:
        stop(cannot_write(output, error))


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--keep-going",
    is_flag=True,
    help="Past an illegal ply or a syntax slip with one nearest suggestion, go on as if it had been written.",
)
@jobs_options
@encoding_option
@reading_options
def validate(
    paths: tuple[str | Path, ...], as_json: bool, strict: bool, keep_going: bool, jobs: int, encoding: str
) -> None:
    """Check each record of PATH... against its game's rules (files, directories of record files, - for stdin).

    Exit status: 0 when every record is valid, 1 when any is not, 2 when an
    input cannot be read or no record was found at all."""
    records = invalid = errors = warnings = 0
    cited: dict[str, None] = {}  # the rules of the diagnostics, in order of appearance
    inputs = Inputs()
    for verdict in inputs(api.validate(paths, encoding, strict, jobs, keep_going, **reading())):
        records += 1
        invalid += not verdict.valid
        errors += sum(d.severity == api.ERROR for d in verdict.diagnostics)
        warnings += sum(d.severity != api.ERROR for d in verdict.diagnostics)
        if as_json:
            echo(output.verdict_json(verdict))
            continue
        for diagnostic in verdict.diagnostics[:MAX_SHOWN]:
            echo(output.diagnostic_text(verdict, diagnostic))
        cited.update(dict.fromkeys(d.rule for d in verdict.diagnostics))
        if len(verdict.diagnostics) > MAX_SHOWN:
            echo(output.more_diagnostics(verdict, MAX_SHOWN))
    if not as_json and inputs.sums_up(paths, records):
        echo(output.validation_summary(records, invalid, errors, warnings, cited, inputs.problems))
    inputs.finish(paths, records, 1 if invalid else 0)


@main.command()
@paths_argument
@click.option("--check", is_flag=True, help="Write nothing; list the files not in canonical form (exit status 1).")
@click.option("--write", is_flag=True, help="Rewrite the files in place (in UTF-8), and list those changed.")
@encoding_option
@reading_options
def fmt(paths: tuple[str | Path, ...], check: bool, write: bool, encoding: str) -> None:
    """Write the records of PATH... in canonical form (to standard output by default).
    Records of other formats come out as lgn; --check and --write apply to lgn files
    (in a directory, they skip the files of other formats, one note per format). An lgn
    file's % lines (escape lines, which the reader ignores) are all kept, except, to
    standard output, those of a file that holds no record, and so are an e-mail's greeting
    above its first record and its closing and signature (a `-- ` line and after) below its last.
    A record written renumbered over a move number's warning (a ply missing? a gap in the source?)
    is said in a note on standard error: where the numbers are the source's, keep them in a comment.

    A file keeps its line ends (LF, CRLF or CR) and its byte order mark, or their absence;
    the canonical encoding is UTF-8, so --write turns a file read with another --encoding
    into UTF-8, and --check finds such a file not canonical. A file that holds a byte its
    encoding does not decode (that record's error, or, in a % line, the file's) is left as
    it is, byte for byte, and so is a UTF-8 file a single-byte --encoding would read wrong.

    Exit status: 0 when every record parses (and, with --check, every file is canonical);
    1 when a record does not parse (said on standard error and written as it was: one of a
    byte its encoding does not decode, in its bytes as they were) or, with
    --check, a file is not canonical; 2 when an input cannot be read, a file cannot be
    written, or --check or --write is given a file of another format."""
    if check and write:
        raise click.UsageError("--check and --write exclude each other (--check writes nothing)")
    if write and api.STDIN in paths:
        raise click.UsageError("--write cannot rewrite standard input")
    inputs = Inputs()
    status = _formatted_files(inputs, paths, encoding, check) if check or write else _formatted(inputs, paths, encoding)
    sys.exit(2 if inputs.unreadable else status)


def _formatted(inputs: Inputs, paths: tuple[str | Path, ...], encoding: str) -> int:
    """`fmt` to standard output: every record in canonical form, streamed, records apart by a
    blank line (`api.record_gap`); the exit status of the records (`_said`)."""
    status, apart = 0, ""
    for text, report in inputs(api.canonical_records(paths, encoding, **reading())):
        status = max(status, _said(report, written=True))
        echo(apart, nl=False)
        as_read = api.bytes_as_read(report)  # (its bytes: a byte not decoded is no character to write)
        echo(text if as_read is None else as_read, nl=False)
        apart = api.record_gap(report)
    return status


def _formatted_files(inputs: Inputs, paths: tuple[str | Path, ...], encoding: str, check: bool) -> int:
    """`fmt --check` (the lgn files not in canonical form listed, and counted at the end) or
    `--write` (rewritten); the exit status."""
    status, uncanonical = 0, 0
    skipped: dict[str, list[str]] = {}  # by format, the files of other formats found in a directory
    for file in inputs(api.canonical_files(paths, encoding, **reading())):
        if file.format != "lgn":
            status = max(status, _not_lgn(file, paths, skipped))
            continue
        for report in file.reports:
            status = max(status, _said(report, written=not check))
        if not file.changed:
            continue
        if check:
            echo(f"{api.shown_path(file.path)}: not in canonical form")
            status, uncanonical = max(status, 1), uncanonical + 1
        else:
            status = max(status, _rewritten(file))
    _say_skipped(skipped)
    if uncanonical:
        them = "it" if uncanonical == 1 else "them"
        echo(
            f"lusoria: {plural(uncanonical, 'file')} not in canonical form: lusoria fmt --write rewrites {them}",
            err=True,
        )
    return status


def _said(report: api.Report, written: bool) -> int:
    """A record fmt keeps as written (`Report.rewritable`): why, on stderr, and status 1; else 0. One it writes
    renumbered (`written`) over a move number's warning, which may be evidence (a ply missing, a gap in the source,
    a fragment numbered as its source: h78a), is said in a note."""
    if not report.rewritable:
        echo(output.diagnostic_text(report, report.stopped_by), err=True)
        return 1
    numbered = next((d for d in report.diagnostics if d.rule == "number"), None) if written else None
    if numbered is not None:
        place = f"{api.shown_place(report.source.path, numbered.line)}:{numbered.column}"
        echo(
            f"lusoria: note: {place}: written renumbered ({numbered.said()}); where the numbers are the source's, "
            "keep them in a comment",
            err=True,
        )
    return 0


def _not_lgn(file: api.CanonicalFile, paths: tuple[str | Path, ...], skipped: dict[str, list[str]]) -> int:
    """A file of another format than lgn met by --check or --write: found in a directory, skipped
    (status 0; added to `skipped`, said at the end); named, an error (status 2)."""
    if file.path not in map(str, paths):  # found in a directory ([old].lgn: a Path)
        skipped.setdefault(file.format, []).append(file.path)
        return 0
    echo(
        f"lusoria: {api.shown_path(file.path)}: --check and --write apply to lgn files, and this one is "
        f"{file.format}; lusoria convert writes it as lgn",
        err=True,
    )
    return 2


def _say_skipped(skipped: dict[str, list[str]]) -> None:
    """The files of other formats that --check or --write skipped: one note per format, of the
    file, or of their count and the first ones."""
    why = "--check and --write apply to lgn files"
    for format, files in skipped.items():
        if len(files) == 1:
            echo(f"lusoria: {api.Skipped(files[0], f'read as {format}: {why}')}", err=True)
        else:
            echo(f"lusoria: skipped {api.files_named([*map(api.shown_path, files)], format)}: {why}", err=True)


def _rewritten(file: api.CanonicalFile) -> int:
    """`fmt --write` of a file not in canonical form: rewritten and listed (status 0), or why it
    cannot be (status 2)."""
    from lusoria.files import write_file

    try:
        write_file(file.path, file.canonical.decode("utf-8"))
    except OSError as error:
        echo(f"lusoria: {cannot_write(api.shown_path(file.path), error)}", err=True)
        return 2
    echo(f"{api.shown_path(file.path)}: rewritten")
    return 0


def output_dir_options(help: str) -> Callable:
    """--output-dir DIR, a file for every record (`help`: which, and how named), and --overwrite:
    the one policy of the commands that write them (`written_in`)."""
    written = click.option("--output-dir", type=click.Path(file_okay=False), metavar="DIR", help=help)
    overwrite = click.option(
        "--overwrite", is_flag=True, help="With --output-dir: write over the files already in DIR (an earlier run's)."
    )
    return lambda command: with_options(output_dir_given(command), written, overwrite)


def output_dir_given(command: Callable) -> Callable:
    """The command, for which --overwrite, or --jobs or --force-jobs (show's and html's, which make the
    files of DIR alone), without --output-dir is a usage error (not an option ignored), and so is a DIR
    that is a folder PATH names or holds one (`api.OutputAmongInputs`), or two PATHs whose files would be
    named alike in DIR (`api.InputsOfOneName`), said before any record is read."""

    @wraps(command)
    def checked(*args, **kwargs):
        if kwargs["output_dir"] is None:
            if kwargs["overwrite"]:
                raise click.UsageError("--overwrite writes over the files already in DIR: give --output-dir DIR")
            if _given("jobs") or _given("force_jobs"):
                given = "--jobs" if _given("jobs") else "--force-jobs"
                raise click.UsageError(
                    f"{given} is of the worker processes that share the files of DIR: give --output-dir DIR"
                )
        try:
            return command(*args, **kwargs)
        except api.OutputAmongInputs as error:
            raise click.BadParameter(str(error), param_hint="--output-dir") from None
        except api.InputsOfOneName as error:
            raise click.BadParameter(str(error), param_hint="PATH...") from None

    return checked


def one_record(command, path: Callable = click.argument("path", callback=as_paths)):
    """PATH, --record, -o/--output, --encoding and the reading options: a command that writes
    something of one record of a file (show, html), to standard output or to a file (`deliver`)."""
    return with_options(
        command,
        path,
        click.option(
            "--record",
            "index",
            type=Bounded(),
            default=0,
            show_default=True,
            help="Which record of the file (0-based; an archive's record N, as its import read it: lusoria sql "
            "'SELECT text FROM record_texts WHERE id = N' --format lgn, piped in as PATH -).",
        ),
        click.option(
            "-o",
            "--output",
            "written_to",
            type=click.Path(dir_okay=False, writable=True),
            help="Write to this file.",
        ),
        encoding_option,
        reading_options,
    )


def say_unreplayable(error: api.Unreplayable, index: int) -> NoReturn:
    """Stop (status 1): record `index` cannot be replayed at all (`unreplayable_said`)."""
    stop(unreplayable_said(error.path, error.diagnostic, index), 1)


def unreplayable_said(path: str, diagnostic: api.Diagnostic, index: int) -> str:
    """Record `index` of `path` cannot be replayed at all, said at the diagnostic's place, as validate
    and rules say it."""
    return f"{output.located(path, diagnostic)}: record {index}: {output.unreplayable(diagnostic, to=COMMAND)}"


def say_unread(record: output.Sourced, unread: Iterable[api.Diagnostic]) -> None:
    """What a record replayed lacks (`unread`: its result marker), on standard error as validate says it."""
    for diagnostic in unread:
        echo(output.diagnostic_text(record, diagnostic), err=True)


def deliver(text: str, written_to: str | None, path: str | Path) -> None:
    """What a command of `one_record` made of PATH: written to its --output file, or shown."""
    if written_to:
        write_output(written_to, text, path)
    else:
        echo(text, nl=False)


@main.command()
@partial(one_record, path=paths_argument)
@click.option(
    "--ply",
    type=Bounded(),
    help="Show the board after this ply of the main line (0: the start; each side's turn is a ply; "
    "default: the last); as text, its first line names the ply's move (an SVG diagram's title is its position).",
)
@format_choice(["text", "svg"], "The board as text, or as an SVG diagram.")
@output_dir_options(
    "With --format svg: write the board of every record of PATH... to DIR, named as convert names its "
    "files (round1/game.lgn: DIR/round1/game-000000.svg)."
)
@partial(jobs_options, needs="--output-dir", work="draw the boards")
def show(
    paths: tuple[str | Path, ...],
    index: int,
    ply: int | None,
    written_to: str | None,
    output_dir: str | None,
    format_: str,
    overwrite: bool,
    jobs: int,
    encoding: str,
) -> None:
    """Show the board of a record of PATH after a ply (as text, or as SVG).

    With --format svg --output-dir, the board after --ply (default: each record's last) of every
    record of every PATH (files and folders), as html --output-dir writes its pages: a file already in
    DIR that differs is not written over without --overwrite; a record that cannot be replayed to that ply is said
    on stderr with its place, the others written. Exit status 0 when every board was written, 2 when
    one was not, an input cannot be read or no record was found. One board: 1 when the record's replay stops
    at an illegal ply before --ply (as validate's 1: an invalid record), 2 when --ply is past its end."""
    if output_dir is not None:
        if format_ != "svg":
            raise click.UsageError("--output-dir writes SVG diagrams: give --format svg")
        without_one_record_options(written_to, "--output-dir draws the board of every record")
        draw(paths, output_dir, ply, overwrite, jobs, encoding)
    path = one_path(paths, "one board is of one record: give --format svg --output-dir DIR")
    with record_of(path, index, encoding) as source:
        try:
            board = api.board(source, ply)
        except api.Unreplayable as error:
            say_unreplayable(error, index)
        except api.PastTheEnd as error:  # a usage error
            stop(f"{path}, record {index}: {error}")
        except api.ReplayStopped as error:  # an invalid record: at the ply its replay stops at
            stop(f"{output.located(source.path, error.diagnostic)}: record {index}: {error}", 1)
        say_unread(board.report, board.unread)
        deliver((board.svg() if format_ == "svg" else board.text()) + "\n", written_to, path)


def without_one_record_options(written_to: str | None, what: str) -> None:
    """--output-dir, which writes a file for every record (`what` it writes): a usage error with -o or --record."""
    if written_to or not _record_not_chosen():
        raise click.UsageError(f"{what}: not with -o or --record")


def one_path(paths: tuple[str | Path, ...], what: str) -> str | Path:
    """The one PATH of a command that makes one thing of one record, without --output-dir (`what`
    says so): a usage error for several, or for a folder."""
    if len(paths) > 1 or os.path.isdir(paths[0]):
        raise click.UsageError(f"{what} for the records of a folder or several PATHs")
    return paths[0]


def draw(
    paths: tuple[str | Path, ...], directory: str, ply: int | None, overwrite: bool, jobs: int, encoding: str
) -> NoReturn:
    """`show PATH... --format svg --output-dir DIR`: each record's board after `ply` written in `directory`."""
    inputs, status, records = Inputs(), 0, 0
    folder = api.OutputDir(directory, overwrite)
    for diagram in inputs(api.diagrams(paths, ply, encoding, jobs=jobs, output_dir=directory, **reading())):
        records += 1
        if diagram.svg is None:
            status = max(status, not_made(diagram, "drawn", 2))
        else:
            say_unread(diagram, diagram.unread)
            named = api.record_named(diagram.source)
            status = max(status, said_written(folder.write(diagram.file_name, diagram.svg + "\n", named)))
    inputs.finish(paths, records, status)


@main.command()
@paths_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@encoding_option
@reading_options
@jobs_options
def rules(paths: tuple[str | Path, ...], as_json: bool, jobs: int, encoding: str) -> None:
    """For each record of PATH..., the rule sets under which it is legal: its own, or the
    fewest changes of variant and options (docs/rules.md; lusoria explain) that make it legal.
    Last, for each game of several records (each variant, of a game whose boards are its variants):
    the one rule set that makes the most of them legal (not with --json; where it leaves some illegal, a
    variant of another game, of their board, that makes more legal, too), and, when files were skipped
    or sources could not be read (each said with why), how many, as validate counts them. Exit status
    0 when every record was searched (legal under some rule set or none), 1 when one cannot be replayed at all,
    2 when an input cannot be read or no record was found."""
    inputs, unreplayable = Inputs(), False
    fitted = []
    for source, fit in inputs(api.fitting(paths, encoding, jobs=jobs, **reading(searching=True))):
        fitted.append((source, fit))
        unreplayable |= isinstance(fit, api.Diagnostic)
        if as_json:
            echo(output.fit_json(source, fit))
        else:
            echo(output.fit_text(source, fit))
    if not as_json and len(fitted) > 1:
        for proposal in api.proposed_rules(fitted):
            if proposal.records > 1:  # a game's one record: its own line says it all
                echo(f"proposed: {proposal}")
    if (
        not as_json
        and inputs.sums_up(paths, len(fitted))
        and (summary := output.rules_summary(len(fitted), inputs.problems))
    ):
        echo(summary)
    inputs.finish(paths, len(fitted), 1 if unreplayable else 0)


@main.command()
@click.argument("name", metavar="[NAME]", required=False)
def explain(name: str | None) -> None:
    """Print a rule, a game or a variant. A rule that diagnostics cite (T2, S4, Q6, syntax…): its
    text, the options that change it and an example; a game (tablut…): its variants and rules; a variant
    (fetlar-hnefatafl-11x11, or tablut/seed where several games have one of that name, or a name
    another program gives it: "Copenhagen Hnefatafl 11x11"): its board and start, settings and the
    rules each governs, names in other programs, sources, the rules of its game whose texts use its
    name (dux) and, named alone (fetlar), the other variants whose names hold it; an option of the
    Rules tag (leftover): its values and meaning in each game that has it; a word of the rules'
    texts (konakis, incitus or inciti; not a word as common as the): the rules that use it. Any
    case. Without NAME, every rule."""
    if name is None:
        echo(output.rule_list(api.rulebook()))
        return
    try:
        echo(api.explain(name))
    except KeyError as error:
        raise click.BadParameter(error.args[0], param_hint="NAME") from None


@main.command()
@partial(one_record, path=paths_argument)
@output_dir_options(
    "Write a page for every record of PATH... to DIR, named as convert names its files "
    "(round1/game.lgn: DIR/round1/game-000000.html), and DIR/index.html that lists them."
)
@partial(jobs_options, needs="--output-dir", work="make the pages")
def html(
    paths: tuple[str | Path, ...],
    index: int,
    written_to: str | None,
    output_dir: str | None,
    overwrite: bool,
    jobs: int,
    encoding: str,
) -> None:
    """Write a self-contained HTML page that replays a record of PATH (← → to step; #ply=N opens a ply).
    Exit status 1 when the record cannot be replayed at all (the page says why); a record that lacks
    only its result marker is replayed, as by show, and what it lacks said as validate says it.

    With --output-dir, a page for every record of every PATH (files and folders), invalid ones too
    (each shows its diagnostics), and index.html: a row a game (file, record, players, result, verdict,
    link), rebuilt at each run: the pages an earlier run listed there stay listed (a round after
    round into one folder). A page already in DIR that differs, or an index.html that lusoria did not
    write, is not written over without --overwrite (said on stderr); an input that cannot be read is said, the
    others' pages still written, and a record that cannot be replayed at all, or lacks its result marker, is
    said as for its page alone. DIR is not a folder read, nor one that holds one. Exit status 0 when every page was
    written, invalid records' too (lusoria validate's exit status tells whether all are valid), 1 when
    a record cannot be replayed at all (its page written, as for it alone), 2 when an input cannot be
    read, a file is not written or no record was found; stopped by SIGTERM, it ends by SIGTERM (a shell says
    143) once the index lists the pages written (a second SIGTERM or ^C waits until it does), as ^C is Aborted! once
    it does."""
    if output_dir is not None:
        without_one_record_options(written_to, "--output-dir writes a page for every record")
        publish(paths, output_dir, overwrite, jobs, encoding)
    single_page(one_path(paths, "one page replays one record: give --output-dir DIR"), index, written_to, encoding)


def single_page(path: str | Path, index: int, written_to: str | None, encoding: str) -> None:
    """`html PATH`: record `index` of `path`'s page, to standard output or to its -o file."""
    with record_of(path, index, encoding) as source:
        replayed = api.replay(source)
        deliver(replayed.page(), written_to, path)
        try:
            board = replayed.board()
        except api.Unreplayable as error:
            say_unreplayable(error, index)
        say_unread(board.report, board.unread)


def publish(paths: tuple[str | Path, ...], directory: str, overwrite: bool, jobs: int, encoding: str) -> NoReturn:
    """`html PATH... --output-dir DIR`: each record's page written in `directory` and listed in its index.html."""
    inputs, status, records = Inputs(), 0, 0
    pages: list[api.PublishedPage] = []  # the pages made, which the index lists once written
    folder = api.OutputDir(directory, overwrite)
    made: list[api.PublishedPage] | None = None  # every page made, once the records are all read
    with stopped_by_signal() as stopping:  # (SIGTERM as ^C: its pages listed)
        try:
            for page in inputs(api.replay_pages(paths, encoding, jobs=jobs, output_dir=directory, **reading())):
                records += 1
                if page.unreplayable is not None:  # its page says why too, and is published as an invalid record's
                    echo(
                        f"lusoria: {unreplayable_said(page.source.path, page.unreplayable, page.source.index)}",
                        err=True,
                    )
                    status = max(status, 1)  # as `html PATH` ends for it
                say_unread(page, page.unread)
                pages.append(page)
                with stopping.held():  # (a page written is listed: SIGTERM and ^C wait until `folder` holds it)
                    written = folder.write(page.file_name, page.page, api.record_named(page.source))
                    status = max(status, said_written(written))
            cut = {problem.path for problem in inputs.problems if isinstance(problem, api.Unreadable)}
            made = [page for page in pages if page.source.path not in cut]  # (review81b: a file read in part, not)
        finally:  # cut short too (its output piped to `head`, ^C, SIGTERM, a worker lost): the pages written listed
            with stopping.held():  # (where standard output closed, its "wrote" raises)
                status = max(status, index_written(folder, pages, made))
    inputs.finish(paths, records, status)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a service stopped, `kill`) while `stopped_by_signal`'s block runs, raised where ^C raises."""


class StoppedBySigterm(SystemExit):
    """A command stopped by SIGTERM once what it leaves is tidied (`stopped_by_signal`): status 143 (128 + SIGTERM)
    where the command is called, the process ended by SIGTERM where it runs as one (`Lusoria.__call__`)."""


class Stopping:
    """`stopped_by_signal`'s handler of SIGTERM and ^C (SIGINT): the first raises Terminated (^C: KeyboardInterrupt),
    unless it comes while `held`, which raises it once done; those after it are taken as said (the process is ending)."""

    def __init__(self) -> None:
        self.received: int | None = None  # the first signal: it says how the run ends
        self.raised = self.holding = False

    def __call__(self, signum: int, frame: object) -> None:
        self.received = self.received or signum
        if not self.holding:
            self._raise()

    def _raise(self) -> None:
        import signal

        if not self.raised:
            self.raised = True
            raise Terminated if self.received == signal.SIGTERM else KeyboardInterrupt

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """SIGTERM and ^C held while the block runs (a page, the index written whole, a second come or not), raised after it."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.received:
            self._raise()


@contextlib.contextmanager
def stopped_by_signal() -> Iterator[Stopping]:
    """SIGTERM, whose default ends the process at once, raised while the block runs as ^C is (`Terminated`, a
    KeyboardInterrupt): what it leaves is tidied as after ^C (`html --output-dir`'s index lists the pages written),
    not cut off; the command then ends as SIGTERM ends it (`StoppedBySigterm`), not as ^C's Aborted!. Both
    wait while `Stopping.held`. Only where the signal has its default handler (^C: Python's) and one can be set
    (the main thread): a caller's own handler, or the signal ignored, is left as it is, and a thread runs the
    block as it is."""
    import signal
    import threading

    stopping = Stopping()
    defaults: dict[int, Any] = {signal.SIGTERM: signal.SIG_DFL, signal.SIGINT: signal.default_int_handler}
    handled = [
        signum
        for signum, default in defaults.items()
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signum) == default
    ]
    for signum in handled:
        signal.signal(signum, stopping)
    try:
        yield stopping
    except Terminated:
        echo("lusoria: stopped by SIGTERM", err=True)
        raise StoppedBySigterm(128 + signal.SIGTERM) from None
    finally:
        for signum in handled:
            signal.signal(signum, defaults[signum])


def index_written(folder: api.OutputDir, pages: list[api.PublishedPage], made: list[api.PublishedPage] | None) -> int:
    """DIR's index.html written to list those of `pages` written in DIR (`html --output-dir`: `api.write_index`),
    the notes of the games it lists still said before it; the exit status it calls for."""
    index = api.write_index(folder, pages, made)
    say_gone_but_listed(folder.directory, index.gone)
    say_withdrawn_but_listed(folder.directory, index.withdrawn)
    return said_written(index.written) if index.written else 0


def say_gone_but_listed(directory: str, files: list[str]) -> None:
    """A note of the `files` not found here whose games DIR's index lists still (`api.gone_but_listed`): what
    to do if they are gone, and why they may not be (a run from another folder)."""
    if files:
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        echo(
            f"lusoria: note: {os.path.join(directory, 'index.html')} still lists the games of {shown}, not found "
            f"here, as an earlier run's pages of them are still in {directory}: if they were renamed or removed, "
            "delete those pages to take them off the index (their paths are from the folder the earlier run ran from)",
            err=True,
        )


def say_withdrawn_but_listed(directory: str, records: list[str]) -> None:
    """A note of the `records` of files read again that DIR's index lists still, not written now
    (`api.withdrawn_but_listed`): what to do if they were taken out."""
    if records:
        shown = "; ".join(records[:3]) + ("; …" if len(records) > 3 else "")
        pages = "page of it is" if len(records) == 1 else "pages of them are"
        echo(
            f"lusoria: note: {os.path.join(directory, 'index.html')} still lists {plural(len(records), 'record')} past "
            f"the end of the files read now ({shown}), as an earlier run's {pages} still in {directory}: if "
            "records were taken out of those files (the records after them are numbered anew), delete these pages to "
            "take them off the index",
            err=True,
        )


@main.command()
@paths_argument
@click.option("--to", "to", type=Named(lambda: api.target_formats()), required=True, help="The format to write.")
@output_dir_options(
    "Write each record to its own file in DIR (needed for OTN, one game per file, "
    "when there are several records), in the folders that lead to its input from the current directory "
    "(a/game.otg b/game.otg: DIR/a/game-000000.lgn DIR/b/game-000000.lgn; an input outside it: from the folder "
    "above its own, further up when two of one name come from two places). Not a folder read, nor one that holds one (a folder inside one read is left out of it)."
)
@encoding_option
@reading_options
def convert(paths: tuple[str | Path, ...], to: str, output_dir: str | None, overwrite: bool, encoding: str) -> None:
    """Write the records of PATH... as lgn or OTN (OpenTafl), from any format lusoria reads.

    Records are converted as they are read. With --output-dir, each is written whole or not
    at all; a file already in DIR that differs is not written over without --overwrite (said on stderr), nor
    ever one this command already wrote, nor a symbolic link. What a
    record written loses where another program reads it (OTN: the options its rules record has
    no key for, such as Ashton's camps, what OpenTafl plays otherwise under it, such as a game it ends
    drawn by a repetition lusoria's rules do not check) is said in a note on stderr, once for the
    records that lose the same, and then how many they are.

    Exit status: 0 when every record was converted, 1 when some could not be, 2 when an
    input cannot be read, a file cannot be written, or no record was found."""
    inputs, status, records, written = Inputs(), 0, 0, 0
    held: tuple[api.Converted, str] | None = None  # a game of a format of one game a file, written if no other comes
    folder = api.OutputDir(output_dir or "", overwrite)
    noted: dict[str, str] = {}  # what the records written lose, said once: of which record first
    losing: Counter[str] = Counter()  # ... and of how many

    def loses(item: api.Converted) -> None:
        """What a record written loses, said as it is written (h77b: not of a game held, then refused)."""
        if item.note:
            if item.note not in noted:
                noted[item.note] = f"record {item.source.index} of {output.where(item.source)}"
                echo(
                    f"lusoria: {output.where(item.source)}: note: record {item.source.index} and any later record that loses the same: {item.note}",
                    err=True,
                )
            losing[item.note] += 1

    for item in inputs(api.convert(paths, to, encoding, output_dir=output_dir, **reading())):
        records += 1
        if item.text is None:
            status = max(status, not_made(item, "converted", 1))
        elif output_dir:
            refused = said_written(folder.write(item.file_name, item.text, api.record_named(item.source)))
            if not refused:  # (review77: not of a file left unwritten)
                loses(item)
            status = max(status, refused)
        elif api.FORMATS[to].one_game:
            if held is not None:
                raise click.UsageError(f"{to} holds one game per file: give --output-dir for several records")
            held = item, item.text
        else:
            loses(item)
            echo(("\n" if written else "") + item.text.rstrip("\n") + "\n", nl=False)
            written += 1
    if held is not None:
        loses(held[0])
        echo(held[1], nl=False)
    for note, first in noted.items():  # (h71b: a folder's note named one file, and no count)
        if losing[note] > 1:
            echo(f"lusoria: note: {losing[note]} records converted lose what {first} loses (said above)", err=True)
    inputs.finish(paths, records, status)


def not_made(item: api.Converted | api.Diagram, made: str, status: int) -> int:
    """Why a record was not `made` (converted, drawn), on stderr at the place of its error, else of
    the record, the encodings to try named by the option (`said`); `status`, the exit status it calls for."""
    cause = item.diagnostic or (item.stop if isinstance(item, api.Diagram) else None)
    place = output.located(item.source.path, cause) if cause else output.where(item.source)
    echo(f"lusoria: {place}: record {item.source.index} not {made}: {item.said(to=COMMAND)}", err=True)
    return status


def said_written(written: api.Written) -> int:
    """A file of an --output-dir (`api.OutputDir.write`) said: "wrote PATH", or why not on stderr (nothing of one
    that held what it would be); the exit status it calls for."""
    if written.refused:
        echo(f"lusoria: {written.said(to=COMMAND)}", err=True)
        return 2
    if written.wrote:
        echo(f"wrote {written.path}")
    return 0


@main.command()
@click.option("--game", required=True, type=GameNamed(lambda: api.known_games()), help="Which game.")
@click.option("-n", "--count", "count", type=Bounded(1), default=1, show_default=True, help="How many games.")
@click.option(
    "--seed", type=Bounded(0, 2**64 - 1), default=0, show_default=True, help="The same seed gives the same games."
)
@click.option("--variant", help="A named rule preset (needed by a game whose boards are its variants).")
@click.option("--rules", help="Option overrides, as in the Rules tag: 'key=value …'.")
@click.option("--board", help="A game played on boards of several sizes: the board size, as in the Board tag (WxH).")
@click.option(
    "--max-plies", type=Bounded(), default=200, show_default=True, help="Stop a game (result *) after this many plies."
)
def random(
    game: str, count: int, seed: int, variant: str | None, rules: str | None, board: str | None, max_plies: int
) -> None:
    """Write random legal games."""
    tags = {name: value for name, value in (("Variant", variant), ("Rules", rules), ("Board", board)) if value}
    if variant and (refused := api.variant_refused(variant, game)):
        raise click.BadParameter(refused, param_hint="--variant")
    try:
        for index, text in enumerate(api.random_records(game, count, seed, tags, max_plies)):
            echo(("\n" if index else "") + text, nl=False)
    except api.OptionError as error:
        raise options_error(error) from None


def default_db() -> str:
    """The archive commands' default --db (the archive is imported only by the commands that use it)."""
    from lusoria.archive import default_path

    return default_path()


def sql_timeout() -> int:
    """The default --timeout of `sql`: the archive's."""
    from lusoria.archive import DEFAULT_TIMEOUT

    return DEFAULT_TIMEOUT


def archive_at(db: str | None) -> Archive:
    """The archive at `db` (None: `default_path()`'s), which says its notes on stderr (an upgrade begun and done: a
    command that opens an archive made by an older lusoria waits for it; what an import meets
    besides records, as `Inputs` says it)."""
    from lusoria.archive import Archive

    return Archive(db, notes=lambda note: echo(f"lusoria: {hinted(note)}", err=True))


def archive_named(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """--db, refused when empty, given or `$LUSORIA_DB` (h81b: a script's `--db "$ARCHIVE"`, its variable unset, used
    ./lusoria.db and said nothing of it)."""
    if value == "":
        from lusoria.archive import UnnamedArchive

        if context.get_parameter_source("db") == click.core.ParameterSource.DEFAULT:  # (review82: not --db's value,
            raise click.UsageError(str(UnnamedArchive(from_environment=True)), context)  # said as `duplicates` says it)
        raise click.BadParameter(f"is empty: {UnnamedArchive.ADVICE}")
    if value and undecoded(value):  # (review81: an internal error)
        raise click.BadParameter(
            f"{quoted(value)} holds a byte that is not UTF-8 (from another encoding?), and SQLite opens an archive by "
            "a name in UTF-8 alone: rename it"
        )
    return value


db_option = click.option(
    "--db",
    "db",
    default=default_db,
    show_default="$LUSORIA_DB or lusoria.db",
    callback=archive_named,
    help="The archive (a SQLite file).",
)
table_format_option = format_choice(["table", "json", "csv"], "The table as aligned text, JSON or CSV.")
format_option = format_choice(
    output.FORMATS,
    "table, json, csv, or lgn (the records themselves, ready for lusoria validate; a record kept as written "
    "in another format is left out, with a note: exit status 1).",
)
sql_format_option = format_choice(
    output.FORMATS,
    "table, json, csv, or lgn (the column text of each row as it is: the view record_texts holds each "
    "record's, lgn unless the record is kept as written in another format, records.written_in).",
)


def echo_pieces(pieces: Iterable[str]) -> None:
    """Write output as it comes (rows are streamed, not held)."""
    for piece in pieces:
        echo(piece, nl=False)


def archive_errors(action: Callable[[], T]) -> T:
    """Run `action`, turning archive problems into clear messages and exit statuses."""
    from lusoria.archive import (
        DamagedArchive,
        FilterError,
        ImportStopped,
        NotAnArchive,
        ReadOnlyError,
        RemovalStopped,
        UnsearchableRecord,
    )

    try:
        return action()
    except (NotAnArchive, ImportStopped, RemovalStopped, DamagedArchive) as error:
        stop(hinted(error))
    except ReadOnlyError as error:
        stop(hinted(error), 1)
    except UnsearchableRecord as error:  # what it breaks, as validate says it; its status too
        say_breaks(error)
        stop(str(error), 1)
    except FilterError as error:
        raise click.UsageError(f"--{option_name(error.filter)} {error.problem}") from None
    except UnicodeError:  # (a ValueError too, and never the user's: an internal error, said as one, h81b)
        raise
    except ValueError as error:
        raise click.UsageError(hinted(error)) from None


ARCHIVE_SUFFIXES = (".db", ".sqlite", ".sqlite3")  # what names an archive, not records


def _refuse_an_archive_as_path(paths: tuple[str | Path, ...]) -> None:
    """A usage error, before anything is stored, for a PATH that does not exist and is named as an
    archive is (`lusoria import games.db folder/`, as sqlite-utils is called): its records would go
    into the archive --db names."""
    named = next((str(p) for p in paths if Path(p).suffix.lower() in ARCHIVE_SUFFIXES and not Path(p).exists()), None)
    if named is not None:
        raise click.UsageError(
            f"{named} does not exist: PATH is what to import; the archive to import into is --db {named}"
        )


@main.command(name="import")
@paths_argument
@db_option
@click.option(
    "--replace",
    is_flag=True,
    help="Replace the records the archive holds from each file read (the same file, from any directory) by "
    "the file's records as they are now: those it still has, unchanged, are kept (their ids too), the others "
    "removed (all of them, for a file now empty). The files it holds under a PATH that no longer exist are "
    "counted, and keep their records.",
)
@click.option(
    "--all-duplicates",
    is_flag=True,
    help=f"Name every record skipped as a duplicate (by default the first {output.DUPLICATES_NAMED}).",
)
@jobs_options
@click.option(
    "--encoding",
    type=Encoding(),
    help="Text encoding of the input (e.g. latin-1, cp1252). By default utf-8, but a file that does not decode "
    "as utf-8 is read with the encoding the archive's records of it were read with (or, a file moved, of the file "
    "of its name gone; a note says so).",
)
@reading_options
@output_closed_taken()
def import_(
    paths: tuple[str | Path, ...], db: str, replace: bool, all_duplicates: bool, jobs: int, encoding: str | None
) -> None:
    """Check the records of PATH... and store them all, valid or not, in the archive.

    A record of a game already in the archive is skipped: the same rules, start, plies,
    result and Seven Tag Roster, however written; each is named after the summary, where it
    is and the archive's record of its game (the first few; --all-duplicates: all). A record read from another format is
    stored in lusoria's notation, with its format (tag SourceFormat) and path. A
    record mended since its import is another game, added beside the old (the summary names its
    file): --replace its file. A progress bar
    shows on a terminal (not TERM=dumb). A record lusoria fails on (a bug, said on standard error), or a
    plug-in's game does (its bug, said naming it), is left out while the others are stored.
    A PATH named as an archive is (.db, .sqlite) that does not exist is refused before anything is
    stored: the archive is --db. Exit status 2 when an input cannot be read, no record was found at
    all, or a plug-in's game failed; 3 when lusoria failed on a record, or found a catalogue of tafl variants
    wrong (lusoria's or the user's own: an entry to mend), which stops the import."""
    _refuse_an_archive_as_path(paths)
    shown = (  # a progress bar, in bytes read, on a terminal that moves its cursor (h81b: not a dumb one, Emacs's shell)
        sys.stderr.isatty() and os.environ.get("TERM") != "dumb" and api.STDIN not in paths
    )
    with (
        click.progressbar(
            length=api.size(api.found(paths, reading()["format"], encoding or "utf-8")),
            label="importing",
            file=cast(TextIO, WhileItTakes(unescaped(sys.stderr))),  # (the terminal gone, the import goes on)
        )
        if shown
        else contextlib.nullcontext() as bar
    ):
        try:
            summary = archive_errors(
                lambda: archive_at(db).import_paths(
                    paths, encoding, progress=bar.update if bar else None, jobs=jobs, replace=replace, **reading()
                )
            )
        except api.WorkerLost as error:  # what came before stands: the batches imported
            stop(str(error))
    debug = debugging()
    for failure in summary.failed:
        said = failure.error if failure.by_plug_in else f"internal error: {failure.error}"
        echo(f"lusoria: {failure.place}: {said}; the record was not stored", err=True)
        if debug:
            echo(failure.trace, err=True)
    summed = summary.gone or Inputs(summary.problems).sums_up(paths, summary.found)  # (its files gone: what
    if summed and os.path.exists(db):  # --replace found; no archive made of no record: no summary of it)
        echo(f"{db}: {summary.said(to=COMMAND)}")
        echo(output.skipped_text(summary.skipped, None if all_duplicates else output.DUPLICATES_NAMED), nl=False)
    if unparsed := summary.unparsed_said(to=COMMAND):
        echo(f"lusoria: note: {unparsed}", err=True)
    if lusorias := [failure for failure in summary.failed if not failure.by_plug_in]:
        echo(f"lusoria: {plural(len(lusorias), 'record')} not stored, the others were. {bug_report()}", err=True)
        sys.exit(INTERNAL_ERROR)
    if not summary.found and not summary.replaced and not summary.unreadable:
        say_no_record(paths)
    sys.exit(
        2 if summary.unreadable or summary.stray or summary.failed or not (summary.found or summary.replaced) else 0
    )


def option_name(field: str) -> str:
    """The option of a filter (a field of Filters)."""
    from lusoria.archive import Filters

    declared = {f.name: f.metadata.get("option") for f in dataclasses.fields(Filters)}
    return declared.get(field) or field.replace("_", "-")


def filter_params() -> list[click.Parameter]:
    """The options of `query`'s filters, one per field of Filters, as its metadata declares."""
    from lusoria.archive import Filters

    params: list[click.Parameter] = []
    for field in dataclasses.fields(Filters):
        meta, name = field.metadata, "--" + option_name(field.name)
        kwargs: dict[str, Any] = {"help": meta["help"], "metavar": meta.get("metavar")}
        if meta.get("negative"):
            name, kwargs["default"] = f"{name}/--{meta['negative']}", None
        elif meta.get("choices"):
            kwargs["type"] = click.Choice(meta["choices"])
        elif "maximum" in meta:
            kwargs["type"] = Bounded(meta["minimum"], meta["maximum"])
        elif "minimum" in meta:
            kwargs.update(type=Bounded(meta["minimum"]), default=field.default)
        elif field.default is False:
            kwargs["is_flag"] = True
        elif meta.get("read") == "lines":
            kwargs["type"] = click.File("rb")  # decoded by `positions_text`
        elif meta.get("read") == "records":
            kwargs["type"] = click.Path(dir_okay=False)
        elif field.default is dataclasses.MISSING:  # a list
            kwargs["multiple"] = True
        if field.default is None and not meta.get("negative"):  # one value: read them all, to refuse a second
            kwargs.update(multiple=True, callback=one_value)
        params.append(click.Option([name, field.name], **kwargs))
    return params


def one_value(ctx: click.Context, param: click.Parameter, values: tuple[Any, ...]) -> Any:
    """The value of a filter that takes one, refused when given twice: `--player A --player B` found
    B's games alone, A dropped unsaid, where filters combine."""
    if len(values) > 1:
        given = ", ".join(repr(value) for value in values)
        raise click.BadParameter(f"given {len(values)} times ({given}); it takes one", ctx, param)
    return values[0] if values else None


def positions_text(positions: BinaryIO) -> str:
    """The text of a --positions file, read no further than one character past MAX_POSITIONS
    (/dev/zero, one endless line, once ran out of memory); bytes that are not UTF-8 are a usage
    error saying where."""
    pieces, length = [], 0
    try:
        for piece in api.decoded_text(positions, positions.name):
            pieces.append(piece)
            length += len(piece)
            if length > MAX_POSITIONS:
                break
    except api.InputError as error:  # (no encoding to try: the file is UTF-8, no option says otherwise)
        raise click.BadParameter(error.args[0], param_hint="--positions") from None
    return "".join(pieces)


def filters_of(options: dict[str, Any], invalid_left_out: bool = True) -> Any:
    """The Filters that the filter options of a command ask for (files and NAME=VALUE read); the records of
    --records that are not valid said and, with `invalid_left_out`, left out (`searchable`)."""
    from lusoria.archive import Filters, unsought

    pairs = []
    for tag in options["tags"]:
        name, equals, value = tag.partition("=")
        if not equals:
            raise click.BadParameter(f"{quoted(tag)} is not NAME=VALUE", param_hint="--tag")
        pairs.append((name, value))
    options.update(tags=pairs, material=list(options["material"]))
    if positions := options["positions"]:
        text = positions_text(positions)
        if len(text) > MAX_POSITIONS:
            raise click.BadParameter(
                f"{positions.name} is longer than {MAX_POSITIONS:,} characters", param_hint="--positions"
            )
        numbered = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
        numbered = [(number, line) for number, line in numbered if line and not line.startswith("#")]
        options["positions"] = [line for _, line in numbered]
        if not options["positions"]:
            raise click.BadParameter(f"{positions.name} holds no position or pattern", param_hint="--positions")
    if records := options["records"]:
        problems: list[Problem] = []
        options["records"] = list(api.without_problems(api.records([records]), problems))
        if unread := [problem for problem in problems if not isinstance(problem, api.Note)]:
            stop(str(unread[0]))
        if not options["records"]:
            raise click.BadParameter(f"{records} holds no record", param_hint="--records")
        if invalid_left_out:
            options["records"] = searchable(options["records"])
    chosen = Filters(**{name: value for name, value in options.items() if value is not None})
    if positions and (refused := unsought(chosen.positions, chosen)):
        index, problem = refused
        raise click.BadParameter(f"{positions.name}:{numbered[index][0]}: {problem}", param_hint="--positions")
    return chosen


def say_breaks(unsearchable: UnsearchableRecord) -> None:
    """What a record of --records that is not valid breaks (an UnsearchableRecord), on stderr, as validate says it."""
    for diagnostic in unsearchable.diagnostics[:MAX_SHOWN]:
        echo(output.diagnostic_text(unsearchable, diagnostic), err=True)


UNSEARCHED = "lusoria.unsearched"  # (click's Context.meta) a record of --records left out: status 1 (`Lusoria.invoke`)


def searchable(records: list[api.RecordText]) -> list[api.RecordText]:
    """The records of --records a search can be of: each that is not valid is said, as validate says it, and left
    out, the others searched (a file of partial transcriptions nearly always holds a slip: h78b), the command's
    status then 1; none left, it stops, status 1."""
    from lusoria.archive import UnsearchableRecord

    kept: list[api.RecordText] = []
    for index, record in enumerate(records):
        report = api.check(record, keep=False)
        if report.valid:
            kept.append(record)
            continue
        invalid = UnsearchableRecord(index, report.source, report.diagnostics)
        say_breaks(invalid)
        echo(f"lusoria: {invalid}: it is left out", err=True)
        click.get_current_context().meta[UNSEARCHED] = True
    if not kept:
        stop("no record of the records file is valid: nothing is searched", 1)
    return kept


def note_left_out(db: str, filters: Any) -> None:
    """A note on stderr of the records of other games whose variants' names hold the game `filters` name at
    the start of a word, which they leave out (`Archive.variants_elsewhere`: `--game brandubh`, Hnefatafl's brandubh-*)."""
    for elsewhere in archive_at(db).variants_elsewhere(filters):
        echo(f"lusoria: note: {elsewhere}", err=True)


def note_own_games(db: str, filters: Any) -> None:
    """A note on stderr of the games of a player against themselves that `filters` match, which the score
    table and the crosstable leave out (`Archive.own_games`)."""
    if note := output.own_games_note(archive_at(db).own_games(filters)):
        echo(f"lusoria: note: {note}", err=True)


def note_lacking(db: str, filters: Any) -> None:
    """When `filters` found no record: a note on stderr of the game or variant they name that the
    archive holds no record of, with those it holds (`Archive.lacking`), and of each player they
    name whom no record names (`Archive.players_lacking`), of the rule they name that no diagnostic
    cites (`Archive.rule_lacking`), of the board no record is on (`Archive.board_lacking`), of the
    id no record has (`Archive.id_lacking`), and of the path that names a folder (`Archive.path_lacking`)."""
    archive = archive_at(db)
    if lacking := archive.lacking(filters.game, filters.variant):
        echo(f"lusoria: {lacking}", err=True)
    if rule := archive.rule_lacking(filters.rule):
        echo(f"lusoria: {rule}", err=True)
    if board := archive.board_lacking(filters.board):
        echo(f"lusoria: {board}", err=True)
    if record_id := archive.id_lacking(filters.record_id):
        echo(f"lusoria: {record_id}", err=True)
    if path := archive.path_lacking(filters):
        echo(f"lusoria: {path}", err=True)
    for player in archive.players_lacking(filters):
        echo(f"lusoria: {player}", err=True)


class FilterCommand(click.Command):
    """A command with the filter options of Filters (all but those in `without`), made when the
    command is used: `lusoria validate` loads no archive code."""

    def __init__(self, *args: Any, without: tuple[str, ...] = (), at: int | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.without, self.at, self.made = without, at, False

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if not self.made:
            self.made, at = True, len(self.params) if self.at is None else self.at
            self.params[at:at] = [param for param in filter_params() if param.name not in self.without]
        return super().get_params(ctx)


@main.command(cls=FilterCommand, at=1)  # the filters between --db and --format
@db_option
@format_option
def query(db: str, format_: str, **filters: Any) -> None:
    """Find records in the archive; oldest first, or in the --order asked.

    Exit status: 0, when no record matches too (a note says why none may: a game, a player, a rule the
    archive lacks), as a query finds what there is (export and remove, which then do nothing, end 1); 1 when
    --format lgn leaves a record out (said)."""
    from lusoria.archive import LISTED, left_out_as_lgn, lgn_text

    chosen = filters_of(filters)
    searched = chosen.position or chosen.pattern or chosen.positions or chosen.material
    shown = output.INVALID_COLUMNS if chosen.valid is False else output.TABLE_COLUMNS
    columns = (shown if format_ == "table" else LISTED) + (["ply"] if searched else [])
    left_out: list[str] = []

    def converted(rows: Iterable[dict]) -> Iterator[dict]:
        """The rows in lusoria's notation (`lgn_text`); a record lgn would not carry (`left_out_as_lgn`: one kept as
        written in another format, one whose text would not read back so) is kept aside, to be named."""
        for row in rows:
            if why := left_out_as_lgn(row, READING_OPTIONS):
                left_out.append(f"lusoria: {row['path']}:{row['line']}: {why}")
            else:
                yield {**row, "text": lgn_text(row)}

    found = 0

    def counted(rows: Iterable[dict]) -> Iterator[dict]:
        nonlocal found
        for found, row in enumerate(rows, 1):
            yield row

    records = archive_at(db).iter_query(chosen)
    rows = counted(records)
    if format_ == "lgn":
        rows = converted(rows)
    elif format_ == "table":
        rows = (output.table_row(row, os.getcwd()) for row in rows)
    with contextlib.closing(records):  # (left part-read when the output stops)
        archive_errors(lambda: echo_pieces(output.render_pieces(rows, format_, columns)))
    note_left_out(db, chosen)
    if not found:
        note_lacking(db, chosen)
    for said in left_out:
        echo(said, err=True)
    sys.exit(1 if left_out else 0)


@main.command()
@click.argument("sql")
@db_option
@sql_format_option
@click.option(
    "--timeout",
    cls=LazyDefault,
    type=Bounded(0, 10**6),
    default=sql_timeout,
    show_default=True,
    help="Stop the statement after this many seconds of its running (0: no limit; the time its rows wait to be "
    "written, to a pager or a slow pipe, is not counted). Ctrl-C stops it too.",
)
def sql(sql: str, db: str, format_: str, timeout: int) -> None:
    """Run read-only SQL on the archive (writes, ATTACH and PRAGMA settings are refused).

    Exit status: 0, when no row is found too; 1 when SQLite refuses the SQL (no such table, a
    statement that writes), when it runs past --timeout, or when the output is cut short (a pipe to
    head closed); 2 for a usage error or an archive that cannot be read; 3 as lusoria --help says."""
    if said := undecoded(sql):  # (review81: an internal error, SQLite reads UTF-8 alone)
        raise click.BadParameter(said, param_hint="SQL")
    rows = archive_at(db).iter_sql(sql, timeout or None)
    with contextlib.closing(rows):  # (left part-read when the output stops: a row lgn cannot write)
        archive_errors(lambda: echo_pieces(output.render_pieces(rows, format_)))


@main.command()
@click.argument("paths", nargs=-1, metavar="[PATH]...", callback=as_paths)
@click.option(
    "--db",
    callback=archive_named,
    help="Look in this archive instead of files (without PATH: $LUSORIA_DB or lusoria.db).",
)
@jobs_options
@encoding_option
@reading_options
def duplicates(paths: tuple[str | Path, ...], db: str | None, jobs: int, encoding: str) -> None:
    """Find the records that are the same game as an earlier one, or a prefix of a longer one:
    those of PATH... (or, without PATH, of the archive; docs/archive.md says what counts).

    Exit status: 0 when there is none, 1 when there are, 2 when an input cannot be read."""
    if paths and db:
        raise click.UsageError("give files (PATH...) or an archive (--db), not both")
    if not paths and (given := reading_given()):
        raise click.UsageError(
            f"{' and '.join(given)} {'apply' if len(given) > 1 else 'applies'} to files read (PATH...), not to"
            " an archive (--db), whose records were read as they were imported"
        )
    inputs = Inputs()
    found = (
        inputs(api.duplicates(paths, encoding, jobs=jobs, **reading()))
        if paths
        else archive_errors(lambda: archive_at(db).duplicates())  # (None: $LUSORIA_DB's, or lusoria.db)
    )
    same = prefixes = 0
    for duplicate in found:
        echo(str(duplicate))
        same += duplicate.kind == "same"
        prefixes += duplicate.kind == "prefix"
    if inputs.sums_up(paths):
        echo(output.duplicates_summary(same, prefixes, inputs.problems))
    sys.exit(2 if inputs.unreadable else 1 if same or prefixes else 0)


_SCORES = "each player's games won, drawn and lost are lusoria players (the score table) and lusoria players crosstable"
_TYPES = "a game type (GameType, an aagenielsen.dk or OpenTafl type) is read as a variant of its game: --by variant"


@main.command(cls=FilterCommand, at=1)  # the filters after --db
@db_option
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON.")
@click.option(
    "--top",
    type=Bounded(1),
    default=10,
    show_default=True,
    help="Rows of the variants, players, first error rules and --by's games, variants or boards with the most "
    "records (the others in one row, but the players': a game has two).",
)
@click.option(
    "--by",
    type=Advised(
        ["game", "variant", "board"],
        {
            **{name: _SCORES for name in ("player", "players")},
            **{name: _TYPES for name in ("type", "types", "gametype")},
        },
    ),
    help="The results of each game, variant or board size too: each side's wins, the draws and the unfinished "
    "games, the sides named as the games name them; the plies' mean and median; and the invalid records, with "
    "the rules of their first errors.",
)
def stats(db: str, as_json: bool, top: int, by: str | None, **filters: Any) -> None:
    """Counts per game, variant and result, validity, plies, players and first errors; of the
    records the filters match (as in `query`), or of all."""
    chosen = filters_of(filters)
    figures = archive_errors(lambda: archive_at(db).stats(top, chosen, by))
    echo(output.stats_text(figures, as_json), nl=False)
    note_left_out(db, chosen)
    if not figures["records"]:
        note_lacking(db, chosen)


@main.command()
def lsp() -> None:
    """Serve the Language Server Protocol over stdio, for editors (docs/editors.md)."""
    try:
        from lusoria.lsp import serve
    except ImportError as error:  # as serve says it: an environment to mend, exit status 2
        stop(
            f"lusoria lsp needs the language server's packages ({error.name or error} is missing): pip install 'lusoria[lsp]'"
        )
    serve()


@main.command(cls=FilterCommand, without=("limit", "order"))
@click.argument("start", required=False, metavar="[POSITION]")
@db_option
@click.option("--from-id", type=Bounded(1), help="Start from a position of the archive's record of this id …")
@former_name("--record", "--from-id", type=Bounded(1))
@click.option("--ply", type=Bounded(), default=0, show_default=True, help="… after this ply of its main line.")
@click.option("--depth", type=Bounded(1), default=1, show_default=True, help="Plies deep.")
@format_choice(["table", "json", "tree"], "A table (one row per line of plies), JSON (nested), or an indented tree.")
@click.option("--variations", is_flag=True, help="Count the plies of variations too, not only of main lines.")
@sort_choice("games", "The most played plies first, or the best scores.")
@click.option(
    "--min-games", type=Bounded(1), default=1, show_default=True, help="Leave out the plies played in fewer games."
)
def tree(
    start: str | None,
    db: str,
    from_id: int | None,
    former_from_id: int | None,
    ply: int,
    depth: int,
    format_: str,
    variations: bool,
    sort: str,
    min_games: int,
    **filters: Any,
) -> None:
    """Every next ply the archive's records played from POSITION (a position string; the side to
    move may be left out), from --from-id N --ply K (record N of the archive, as --id N finds it, after
    its ply K), or, with neither, from the start of --game
    and --variant (a variant of one game names it; without --variant, the game's variant of most
    records, on --board's board when given, said in a note; neither: the game and variant of most
    records, as the explorer opens, said too); with the games, the shares of each side's
    wins (headed by the names the game gives its sides: the defenders and the attackers) and draws, the score of the side that played it, the average ply and the dates.
    Filters as in `query`; with --symmetric, positions that are one up to the board's symmetries
    are one; with --player, the results are that player's (won, drawn, lost)."""
    if former_from_id is not None and from_id is not None:
        raise click.UsageError("give --from-id N alone: --record N is its former name")
    from_id = from_id if former_from_id is None else former_from_id
    from_game = start is None and from_id is None
    if start is not None and from_id is not None:
        raise click.UsageError("give a POSITION or --from-id N (and --ply K), not both: the tree starts from one")
    if ply and from_id is None:
        raise click.UsageError(
            f"--ply {ply} is a ply of the record of --from-id N: give --from-id N, or leave --ply out"
        )
    chosen = filters_of(filters)
    grown = partial(archive_at(db).tree, start, from_id, ply, chosen, depth, variations, sort, min_games)
    nodes = archive_errors(partial(game_start_errors, grown) if from_game else grown)
    echo(output.tree_text(nodes, format_), nl=False)
    # (the records of the other games' variants that reached the POSITION: h73a, a 13×13 one's never reach an 11×11)
    note_left_out(db, dataclasses.replace(chosen, position=chosen.position or start))
    if not nodes:
        note_lacking(db, chosen)


def game_start_errors(tree: Callable[[], T]) -> T:
    """`tree`, whose start of --game and --variant (`Archive.start_of_game`: given, or the archive's of
    most records) that choose no rules is a usage error at its option (a variant lusoria does not know
    whose records the archive holds said to be perhaps one of a user's own catalogue, not read now)."""
    try:
        return tree()
    except api.OptionError as problem:
        raise options_error(problem) from None


@main.command()
@db_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8001,
    show_default=True,
    help="The port on 127.0.0.1 (0: any free one).",
)
def serve(db: str, port: int) -> None:
    """Serve the archive on this machine with Datasette: the opening explorer and the tables,
    read-only, until Ctrl-C (Datasette is the extra lusoria[web])."""
    from lusoria.archive import MissingDatasette

    def ready(address: str) -> None:
        echo(f"The explorer of {db}: {address} (Ctrl-C stops)")

    try:
        archive_errors(lambda: archive_at(db).serve(port, ready))
    except MissingDatasette as error:
        stop(str(error))
    except OSError as error:  # the port is taken
        stop(f"cannot listen on port {port}: {reason(error)}")
    except KeyboardInterrupt:  # how a server is stopped: not an abort
        pass


class DefaultGroup(click.Group):
    """A group that runs its `default` command when none is named, as `git stash` runs `git
    stash push`: `lusoria players --db x.db` is `lusoria players list --db x.db`."""

    def __init__(self, *args: Any, default: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.default = default

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or args[0].startswith("-") and args[0] not in ctx.help_option_names:
            named = self._named_after_options(args)
            args = [args[named], *args[:named], *args[named + 1 :]] if named else [self.default, *args]
        return super().parse_args(ctx, args)

    def _named_after_options(self, args: list[str]) -> int | None:
        """Where a command is named after options meant for it (`players --db x.db merge A B`, which
        ran `players list` with the extra arguments `merge A B`); None where none is, or where the
        name is an option's value (`players --player merge`)."""
        valued = {
            name
            for command in self.commands.values()
            for param in command.params
            if isinstance(param, click.Option) and not param.is_flag and not param.count
            for name in param.opts
        }
        for index, arg in enumerate(args):
            if not arg.startswith("-") and (index == 0 or args[index - 1] not in valued):
                return index if arg in self.commands else None
        return None


@main.group(cls=DefaultGroup, default="list")
def players() -> None:
    """Player names: aliases, the score table and the crosstable. Without a command (options alone, or
    nothing), `players` runs `players list`."""


@players.command(name="merge")
@click.argument("names", nargs=-1, required=True, metavar="NAME... [CANONICAL]")
@click.option(
    "--into", metavar="CANONICAL", help="The name kept, which every NAME becomes another name of (else: the last NAME)."
)
@db_option
@format_choice(["text", "json"], "A line (and notes of the names no record writes), or JSON that lists them.")
def players_merge(names: tuple[str, ...], into: str | None, db: str, format_: str) -> None:
    """Make every NAME another name of the player CANONICAL, the name kept: --into CANONICAL, or
    else the last name given (players merge 'K. Nilsson' --into 'Karin Nilsson')."""
    if any(name == "--into" or name.startswith("--into=") for name in names):  # (after `--`, every word is a
        # NAME: newcomer-56b merged the option as a name; reviewer-57, `--into=X`)
        raise click.UsageError(
            "--into after -- is taken for a NAME: give --into CANONICAL before -- (players merge --into Siegfried "
            "-- -Siegfried-)"
        )
    from lusoria.archive import same_name

    given, kept = (names, into) if into is not None else (names[:-1], names[-1])
    canonical = archive_errors(lambda: archive_at(db).merge_players(list(given), kept))
    aliases = [name for name in dict.fromkeys(given) if not same_name(name, kept)]  # (the name kept, in any case
    # of its ASCII letters, is no other name of itself: h78b)
    unrecorded = archive_at(db).unrecorded_players([*aliases, kept])
    echo(output.merged_text(aliases, canonical, unrecorded, format_), nl=False)
    if format_ == "text":
        for name in unrecorded:
            echo(f"lusoria: note: no record names {name} yet", err=True)


@players.command(name="unmerge")
@click.argument("names", nargs=-1, required=True, metavar="NAME...")
@db_option
@format_choice(["text", "json"], "A line a name, or JSON that lists the aliases removed.")
def players_unmerge(names: tuple[str, ...], db: str, format_: str) -> None:
    """Make every NAME a player of its own again, no longer another name of the player players
    merge made it one of (a merge made by mistake undone: players unmerge 'Per Dahl')."""
    from lusoria.archive import NotAnAlias

    try:
        removed = archive_errors(lambda: archive_at(db).unmerge_players(list(names)))
    except NotAnAlias as error:
        raise click.BadParameter(str(error), param_hint="NAME") from None
    echo(output.unmerged_text(removed, format_), nl=False)


@players.command(name="list", cls=FilterCommand, without=("limit", "order"))
@db_option
@table_format_option
@click.option("--top", type=Bounded(1), help="Only the first N players of the table (all by default).")
@sort_choice("score", "The most points (score: a win 1, a draw ½) first, or the most games.")
def players_list(db: str, format_: str, top: int | None, sort: str, **filters: Any) -> None:
    """The score table: each player (canonical name) with games, won, drawn, lost, unfinished,
    score (points: a win 1, a draw ½) and percentage, the most points first, then the best percentage
    (--sort games: the most games first); filters as in `query`. Invalid records count, each as its result says: the table's
    last line says how many (--valid: none)."""
    chosen = filters_of(filters)
    table = archive_errors(lambda: archive_at(db).players(chosen, top, sort))
    echo(output.render(table, format_), nl=False)
    note_left_out(db, chosen)
    if not table:
        note_lacking(db, chosen)
    elif format_ == "table":
        echo(output.invalid_note(archive_at(db).invalid_counted(chosen)), nl=False)
    note_own_games(db, chosen)


@players.command(name="crosstable", cls=FilterCommand, without=("limit", "order"))
@db_option
@table_format_option
def players_crosstable(db: str, format_: str, **filters: Any) -> None:
    """The crosstable: each player (canonical name, whichever side they played) a row, the most points
    first, and each opponent a column, numbered as the rows; a cell is the score against that
    opponent over the finished games (1½/2, a win 1, a draw ½; * for unfinished games, not
    counted), then the totals and the games as White and as Black; filters as in `query`. Invalid
    records count, each as its result says: the table's last line says how many (--valid: none)."""
    chosen = filters_of(filters)
    table = archive_errors(lambda: archive_at(db).crosstable(chosen))
    matched = bool(table) or bool(archive_errors(lambda: archive_at(db).query(dataclasses.replace(chosen, limit=1))))
    echo(archive_errors(lambda: output.crosstable_text(table, format_, matched)), nl=False)
    note_left_out(db, chosen)
    if not table:
        note_lacking(db, chosen)
    elif format_ == "table":
        echo(output.invalid_note(archive_at(db).invalid_counted(chosen, paired=True)), nl=False)
    note_own_games(db, chosen)


@main.command(cls=FilterCommand, at=2)  # the filters after --db
@click.argument("directory")
@db_option
@format_choice(
    ["parquet", "csv", "jsonl"],
    "Parquet needs pip install 'lusoria[parquet]'; CSV needs nothing; JSON lines: one file, a record a line.",
    {"json": "JSON is written as JSON lines, one file of a record a line: --format jsonl"},
)
@click.option(
    "--overwrite", is_flag=True, help="Write over files of the export's names in DIRECTORY that no export wrote."
)
@partial(jobs_options, work="replay the records")
def export(directory: str, db: str, format_: str, overwrite: bool, jobs: int, **filters: Any) -> None:
    """Write the archive as files in DIRECTORY, for DuckDB, pandas, polars or Spark: records,
    tags, diagnostics, player aliases, and every position reached (a position string, its board
    and material, the ply played from it), each record replayed; or, as JSON lines, one file of a
    record a line: its columns, tags, diagnostics and main line's plies. With filters (as in
    `query`), the records they match, and their rows of each file. An earlier export's files are
    written over, others only with --overwrite; filters that match no record write nothing (exit
    status 1)."""
    from lusoria.archive import NotAnExport, NothingSelected

    chosen = filters_of(filters)
    try:
        counts = archive_errors(lambda: archive_at(db).export(directory, format_, jobs, chosen, overwrite))
    except NothingSelected as error:
        note_lacking(db, chosen)
        stop(str(error), 1)
    except NotAnExport as error:
        stop(str(error))
    except OSError as error:
        stop(cannot_write(error.filename or directory, error))
    for table, rows in counts.items():
        echo(f"{os.path.join(directory, table)}.{format_}: {plural(rows, 'row')}")
    note_left_out(db, chosen)


@main.command(cls=FilterCommand, at=2)  # the filters after --db and --dry-run
@db_option
@click.option("--dry-run", is_flag=True, help="Name the records it would remove, and remove none.")
def remove(db: str, dry_run: bool, **filters: Any) -> None:
    """Remove from the archive the records the filters match (as in `query`, which lists them first;
    --dry-run names them), with all their rows, in one transaction; each record removed is named. Filters
    are needed: with none, nothing is removed (exit status 2); filters that match no record remove nothing
    (exit status 1)."""
    from lusoria.archive import NothingSelected

    chosen = filters_of(filters, invalid_left_out=False)  # (all the games of the records file, or none removed)
    try:
        removed = archive_errors(lambda: archive_at(db).remove(chosen, dry_run))
    except NothingSelected as error:
        note_lacking(db, chosen)
        stop(str(error), 1)
    echo(output.removed_text(removed, db, dry_run), nl=False)
    note_left_out(db, chosen)


if __name__ == "__main__":
    main()
