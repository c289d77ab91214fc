"""Every rendering the command line writes, in one place (as sqlite-utils keeps its output
formats in its CLI): diagnostics in compiler style, verdicts and fits as JSON, rows of the
archive as a table, JSON, CSV or records, its figures and its move tree. The library returns
data; this module turns it into text, with the few hints that point to another option or command
(`--json lists all`, `--valid`, `lusoria explain`); the CLI adds the rest."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

from lusoria.errors import Refused
from lusoria.words import CALLER, COMMAND, Reader, plural, quoted

if TYPE_CHECKING:
    from lusoria.archive import Node, SkippedDuplicate
    from lusoria.notation.reader import RecordText
    from lusoria.rulebook import Rule
    from lusoria.validator.fit import Fit
    from lusoria.validator.replay import Diagnostic, Verdict

FORMATS = ("table", "json", "csv", "lgn")  # of rows (query, sql)
# `query`'s table: the columns most read, and the file and line each record came from (an imported folder's)
TABLE_COLUMNS = "id game variant date white black result plies valid first_rule path line".split()
INVALID_COLUMNS = [*TABLE_COLUMNS[:10], "first_message", *TABLE_COLUMNS[10:]]  # `query --invalid`'s table
MESSAGE_WIDTH = 60  # columns of a first error's message in query's table: a longer one is cut (…)
DUPLICATES_NAMED = 5  # the duplicates `lusoria import` names by default (--all-duplicates: all)
WINDOW = 60  # characters of a source line shown either side of a diagnostic
TAB_STOP = 8  # the columns from one tab stop to the next, as a terminal sets them
MAX_TABLE = 1 << 26  # characters of values a table holds to size its columns (the other formats stream)


def where(source: RecordText) -> str:
    """A record's place: path:line (`shown_place`)."""
    from lusoria.notation.sources import shown_place  # here: `--help` loads no reader

    return shown_place(source.path, source.line)


def located(path: str, diagnostic: Diagnostic) -> str:
    """A diagnostic's place in the source at `path`: path:line:column, as every command cites it."""
    from lusoria.notation.sources import shown_place

    return f"{shown_place(path, diagnostic.line)}:{diagnostic.column}"


class Sourced(Protocol):
    """What a diagnostic is said of: a record's text and place (a Report, a Verdict…)."""

    @property
    def source(self) -> RecordText: ...


def diagnostic_head(path: str, diagnostic: Diagnostic) -> str:
    """A diagnostic's first line: path:line:column: severity[rule]: message, after the move of its
    ply where it has one (`move 23, Black: `; `Diagnostic.said`)."""
    return f"{located(path, diagnostic)}: {diagnostic.said(meant=False, to=COMMAND)}"


def diagnostic_text(report: Sourced, diagnostic: Diagnostic) -> str:
    """Compiler-style: file:line:col: severity[rule]: message, the line (a long one cut to
    WINDOW characters either side of the column, as compilers do), a caret under the text, as
    wide as it is shown (`columns`; the column itself counts characters); a slip over two lines
    (`31:`⏎`4-7 4-5`), each line with a caret under its part, as the editor's quick fix replaces them,
    what it meant after the last."""
    head = diagnostic_head(report.source.path, diagnostic)
    text, index = report.source.text, diagnostic.line - report.source.line
    start = 0
    for _ in range(max(index, 0)):
        start = text.find("\n", start) + 1 or len(text) + 1
    if index < 0 or start > len(text) or not diagnostic.column:
        return head
    rows = diagnostic.text.split("\n")
    gutter = len(str(diagnostic.line + len(rows) - 1))
    column, width, shown = diagnostic.column - 1, diagnostic.span, head
    for number, row in enumerate(rows, diagnostic.line):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end  # (the last line: to the text's end)
        line = text[start:end]
        if number > diagnostic.line:  # (the slip goes on at the next line's start, after its blanks)
            column, width = len(row) - len(row.lstrip()), len(row.lstrip())
        shown += _underlined(line, str(number).rjust(gutter), column, width)
        start = end + 1
    if diagnostic.suggestions:
        shown += f" {diagnostic.meant()}"
    if diagnostic.assumed:
        shown += f"\n {' ' * gutter} | (assuming {'; '.join(diagnostic.assumed)})"
    return shown


def _underlined(line: str, number: str, column: int, span: int) -> str:
    """A source line after its number (a long one cut to WINDOW characters either side of `column`), and
    a caret under the `span` characters from `column`, as wide as they are shown (a tab as blanks to its stop)."""
    line, column, span = _tabs_expanded(line, column, span)
    width = min(max(1, columns(line[column : column + span])), WINDOW)
    left, right = (0, len(line)) if len(line) <= 2 * WINDOW else (max(0, column - WINDOW), column + width + WINDOW)
    shown = ("…" if left else "") + line[left:right] + ("…" if right < len(line) else "")
    caret = " " * (columns(line[left:column]) + bool(left)) + "^" * width
    return f"\n {number} | {shown}\n {' ' * len(number)} | {caret}"


def _tabs_expanded(line: str, column: int, span: int) -> tuple[str, int, int]:
    """`line` with each tab written as the blanks up to the next tab stop (every TAB_STOP columns, as a
    terminal sets them), and the `span` characters from `column` where they stand in it."""
    if "\t" not in line:  # (most lines: a long one's every character is not walked for each of its diagnostics)
        return line, column, span
    expanded, at, shown = "", [0], 0  # at[i]: where the line's i-th character stands in `expanded`
    for char in line:
        blanks = TAB_STOP - shown % TAB_STOP if char == "\t" else 0
        expanded += " " * blanks if blanks else char
        shown += blanks or columns(char)
        at.append(len(expanded))
    past = len(expanded) - len(line)  # (a place past the line's end moves with it)
    start, end = (at[place] if place <= len(line) else place + past for place in (column, column + span))
    return expanded, start, end - start


def columns(text: str) -> int:
    """The columns `text` takes on a terminal: a combining mark (or a format character, as a zero
    width joiner) none, an East Asian wide or fullwidth character two, any other character one."""
    return sum(
        0
        if unicodedata.category(char) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(char) in ("W", "F")
        else 1
        for char in text
    )


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """A diagnostic as `validate --json` writes it: suggestions, assumed and tries only when there are some;
    its ply numbers it, not its move (the text's)."""
    fields = asdict(diagnostic)
    del fields["move"], fields["width"]
    for name in ("suggestions", "assumed", "tries"):
        fields[name] = list(fields[name])
        if not fields[name]:
            del fields[name]
    return fields


def verdict_dict(verdict: Verdict) -> dict[str, Any]:
    """A verdict as `lusoria validate --json` writes it, one line per record."""
    return {
        "path": verdict.source.path,
        "record": verdict.source.index,
        "line": verdict.source.line,
        "game": verdict.game,
        "variant": verdict.variant,
        "valid": verdict.valid,
        "plies": verdict.plies,
        "result": verdict.result,
        "white": verdict.white,
        "black": verdict.black,
        "diagnostics": [diagnostic_dict(d) for d in verdict.diagnostics],
    }


def verdict_json(verdict: Verdict) -> str:
    return json.dumps(verdict_dict(verdict), ensure_ascii=False)


def fit_json(source: RecordText, fit: Fit | Diagnostic) -> str:
    """What `lusoria rules --json` writes of a record: the rule sets that fit, or why none can."""
    from lusoria.validator.fit import Fit

    fits, problem = (
        ({key: value for key, value in vars(fit).items() if key != "sets"}, None)
        if isinstance(fit, Fit)
        else (None, unreplayable(fit, to=COMMAND))
    )
    return json.dumps(
        {"path": source.path, "record": source.index, "line": source.line, "fit": fits, "problem": problem}
    )


def fit_text(source: RecordText, fit: Fit | Diagnostic) -> str:
    """What `lusoria rules` writes of a record: the rule sets that fit (at the record's first
    line; where none does, at the ply of the latest first conflict), or the diagnostic that stops its
    replay (at its own place)."""
    from lusoria.notation.sources import shown_place
    from lusoria.validator.fit import Fit

    if isinstance(fit, Fit):
        place = (
            f"{shown_place(source.path, fit.furthest_at[0])}:{fit.furthest_at[1]}" if fit.furthest_at else where(source)
        )
        return f"{place}: record {source.index}: {fit}"
    return f"{located(source.path, fit)}: record {source.index}: {unreplayable(fit, to=COMMAND)}"


def rules_summary(records: int, problems: Iterable[object]) -> str | None:
    """`lusoria rules`' last line when files or folders were skipped or sources not read among the
    stream's `problems` (each said as met, as `validate` says them and counts them): the records
    searched and those not; None when every source was searched."""
    from lusoria.notation.sources import inputs_said

    unsearched = inputs_said(problems)
    return f"{plural(records, 'record')} searched{unsearched}" if unsearched else None


def duplicates_summary(same: int, prefixes: int, problems: Iterable[object]) -> str:
    """`lusoria duplicates PATH...`' last line: the duplicates and prefixes found, and the files skipped
    and sources not read among the stream's `problems` (each said as met), as `validate` counts them."""
    from lusoria.notation.sources import inputs_said

    return f"{plural(same, 'duplicate')}, {plural(prefixes, 'prefix', 'prefixes')}{inputs_said(problems)}"


def unreplayable(diagnostic: Diagnostic, *, to: Reader = CALLER) -> str:
    """Why a record cannot be replayed, as validate says it (`Diagnostic.said`), with what its slip meant
    (did you mean 31:?) and the encodings to try as `to` can act on them (`Diagnostic.advised`)."""
    return f"cannot be replayed: {diagnostic.said(to=to)}"


def more_diagnostics(verdict: Verdict, shown: int) -> str:
    """The line that stands for the diagnostics of a record past the first `shown`."""
    return (
        f"{where(verdict.source)}: and {plural(len(verdict.diagnostics) - shown, 'more diagnostic')} "
        "in this record (--json lists all)"
    )


def validation_summary(
    records: int, invalid: int, errors: int, warnings: int, cited: Iterable[str], problems: Iterable[object]
) -> str:
    """`lusoria validate`'s last lines: the counts (the files skipped and the sources not read among the
    stream's `problems`, as `import` counts them), and the rules the diagnostics cited, in order."""
    from lusoria.notation.sources import inputs_said

    cited = list(cited)
    text = (
        f"{plural(records, 'record')}: {records - invalid} valid, {invalid} invalid "
        f"({plural(errors, 'error')}, {plural(warnings, 'warning')})"
    ) + inputs_said(problems)
    if cited:
        text += f"\nrules cited: {', '.join(cited)} (lusoria explain {cited[0]} says what a rule means)"
    return text


def rule_list(rules: Iterable[Rule]) -> str:
    """`lusoria explain` without a rule: one line per rule."""
    return "\n".join(f"{rule.id:<7} {rule.game:<11} {rule.title}" for rule in rules)


def render(rows: Iterable[dict], format: str, columns: list[str] | None = None) -> str:
    """Rows as a table, JSON, CSV, or (when they hold the text) records in the notation."""
    return "".join(render_pieces(rows, format, columns))


def render_pieces(rows: Iterable[dict], format: str, columns: list[str] | None = None) -> Iterator[str]:
    """`render`, piece by piece: JSON, CSV and lgn hold one row at a time (a table needs all).
    ValueError for lgn rows without a text column of records."""
    rows = iter(rows)
    first = next(rows, None)
    if format == "lgn":
        for number, row in enumerate(chain([first], rows) if first is not None else ()):
            if "text" not in row:
                raise Refused(
                    "the lgn format needs a column named text holding records (the view record_texts "
                    f"has it: … JOIN record_texts USING (id)); the columns are {', '.join(row)}"
                )
            if not isinstance(row["text"], str):
                raise Refused(
                    f"the lgn format needs a column named text holding records; row {number + 1} "
                    f"holds {_plain(row['text'])!r}"
                )
            yield ("\n" if number else "") + row["text"]
        return
    if columns is None:
        columns = list(first) if first is not None else []
    shown = ({c: _plain(row.get(c)) for c in columns} for row in (chain([first], rows) if first is not None else ()))
    if format == "json":
        yield "["
        for number, row in enumerate(shown):
            yield ("," if number else "") + "\n  " + _json_row(row)
        yield "\n]\n" if first is not None else "]\n"
    elif format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        for row in shown:
            writer.writerow(row)
            yield out.getvalue()
            out.seek(0)
            out.truncate()
        yield out.getvalue()
    else:
        table, size = [], 0
        for row in shown:
            table.append(row)
            size += sum(len(str(value)) for value in row.values())
            if size > MAX_TABLE:
                raise Refused(
                    f"a table of more than {MAX_TABLE:,} characters of values; the formats json, csv "
                    "and lgn write rows as they come, and have no bound"
                )
        yield _table(table) if table else "no records\n"


def _json_row(row: dict) -> str:
    """A row as `json.dumps(row, indent=2)` writes it, a level further in (a member of the list): its
    values are scalars, which these separators lay out alike, in json's C encoder (with an indent, json
    encodes in Python, three times slower: 100,000 rows took 4 s)."""
    if not row:
        return "{}"
    return "{\n    " + json.dumps(row, ensure_ascii=False, separators=(",\n    ", ": "))[1:-1] + "\n  }"


def _table(rows: list[dict], **options: Any) -> str:
    """Rows as a plain-text table, a line each (tabulate's `options`); a text with blanks around it in quotes,
    which tabulate would strip (h79a: `[White "anna "]` was listed as `anna`, a name `players merge` did not take
    for it)."""
    from tabulate import tabulate  # here: `validate` loads no table code

    shown = [{key: _blanks_shown(value) for key, value in row.items()} for row in rows]
    return tabulate(shown, headers="keys", **options) + "\n"


def _blanks_shown(value: object) -> object:
    """A text with blanks around it quoted whole (`'anna '`), as a command takes it; any other value as it is."""
    return quoted(value, len(value)) if isinstance(value, str) and _blanks_around(value) else value


def _blanks_around(text: str) -> bool:
    """Whether a text of one line (a name: not a record's, which a table shows on its lines, review80) has blanks
    around it."""
    return "\n" not in text and text != text.strip()


def _plain(value: object) -> object:
    """A value JSON, CSV and a table can show: a BLOB as X'…', a float that is no number as text."""
    if isinstance(value, bytes):
        return f"X'{value.hex().upper()}'"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    return value


def table_row(row: dict, here: str) -> dict:
    """A row of `lusoria query` as its table shows it: a path under the folder `here` relative to it
    (one elsewhere, or relative already, as stored; every path when `here` is the root, under which
    all are), the first error's message cut to MESSAGE_WIDTH."""
    shown = dict(row)
    path = row.get("path")
    below_root = os.path.dirname(here) != here
    if path and below_root and os.path.isabs(path) and os.path.commonpath([here, path]) == here:
        shown["path"] = os.path.relpath(path, here)
    if row.get("first_message"):
        shown["first_message"] = _cut(row["first_message"], MESSAGE_WIDTH)
    return shown


def merged_text(names: list[str], kept: str, unrecorded: list[str], format: str) -> str:
    """`lusoria players merge`: the other names and the name kept (`text`: one line; `json`: an object
    that lists the names no record writes too, which the text says in notes on standard error)."""
    if format == "json":
        merged = {"names": names, "kept": kept, "unrecorded": unrecorded}
        return json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    return f"{', '.join(names)} → {kept}, the name kept\n"


def unmerged_text(removed: list[dict], format: str) -> str:
    """`lusoria players unmerge`: each name made a player again and the name it is no longer another name of
    (`text`: a line each; `json`: the aliases removed, as `players list --format json` lists aliases)."""
    if format == "json":
        return json.dumps(removed, indent=2, ensure_ascii=False) + "\n"
    return "".join(f"{row['alias']}: a player again, no longer another name of {row['name']}\n" for row in removed)


def stats_text(figures: dict[str, Any], as_json: bool = False) -> str:
    """`lusoria stats`: the counts, then a table per kind of figure that has any (or all as JSON)."""
    if as_json:
        return json.dumps(figures, indent=2) + "\n"
    plies = figures["plies"]
    text = f"{plural(figures['records'], 'record')}: {figures['valid']} valid, {figures['invalid']} invalid" + (
        f"; plies: mean {plies['mean']}, median {plies['median']}, max {plies['max']}\n" if figures["records"] else "\n"
    )  # (of no record, no plies: not 'mean None')
    for key, title in (
        ("games", "game"),
        ("variants", "variant"),
        ("boards", "board"),
        ("results", "result"),
        ("endings", "ending"),
        ("players", "player"),
        ("first_error_rules", "first error rule"),
    ):
        counted = "games" if key == "players" else "records"  # (a player's, as `players list` counts them: a
        # record where one player plays both sides is a game of each)
        rows = [{title: _named(row["value"], title), counted: row["records"]} for row in figures[key]]
        folded = figures.get(f"more_{key}")  # the rest (past --top), in one row
        if folded and folded[key]:
            rows.append({title: f"({plural(folded[key], 'other ' + title)})", "records": folded["records"]})
        if rows:
            text += "\n" + render(rows, "table")
    if (by := figures.get("results_by")) and by["rows"]:  # (of no record, no table: as the others)
        rows = _results_rows(by["grouping"], by["rows"])
        if folded := by["more_rows"]["rows"]:  # the rest (past --top), in one row, as the other tables'
            rows.append(
                {
                    by["grouping"]: f"({plural(folded, 'other ' + by['grouping'])})",
                    "records": by["more_rows"]["records"],
                }
            )
        text += "\n" + _table(rows, floatfmt=".1f")  # 65.0, not 65
    return text


def _named(value: str | None, title: str) -> str:
    """A row's value, or what its records lack (`(no game)`: records that name no game and do not
    parse; `(no result)`), which a blank cell left unsaid."""
    return f"(no {title})" if value is None else value


def _results_rows(grouping: str, rows: list[dict]) -> list[dict]:
    """`stats --by`: a row per game, variant or board, its records, each side's name and share of
    wins, the shares of draws and unfinished games, in percent, the plies' mean and median, and the
    share of invalid records, with the rules of their first errors of most records (`G5 3, G3 1`)."""
    return [
        {
            grouping: _named(row["value"], grouping),
            "records": row["records"],
            "White": row["white"],
            "White won": f"{row['shares']['white_won']:.1f}%",
            "Black": row["black"],
            "Black won": f"{row['shares']['black_won']:.1f}%",
            "drawn": f"{row['shares']['drawn']:.1f}%",
            "unfinished": f"{row['shares']['unfinished']:.1f}%",
            "mean plies": row["plies"]["mean"],
            "median plies": row["plies"]["median"],
            "invalid": f"{row['invalid_percent']:.1f}%",
            "first errors": ", ".join(f"{rule['value']} {rule['records']}" for rule in row["first_error_rules"]),
        }
        for row in rows
    ]


NAME_WIDTH = 24  # columns of a player's name in the crosstable's table: a longer name is cut (…)
MAX_CROSSTABLE = 500  # players of a crosstable as a table or CSV: a column each (JSON lists the pairings alone)
_TOTALS = ("games", "won", "drawn", "lost", "unfinished", "white", "black")  # of a crosstable's row, after its score


def crosstable_text(rows: list[dict], format: str, matched: bool = True) -> str:
    """`lusoria players crosstable`: JSON as the library gives it, or a table (names cut to
    NAME_WIDTH) or CSV with a row per player numbered by standing and a column per opponent
    numbered alike, each cell the player's score over their finished games (`1½/2`; `*`: and
    unfinished games, which no score counts), then the totals; the table names the unfinished games,
    or says that no record was `matched` by the filters, or no game of them was between two named players.
    ValueError for a table or CSV of more than MAX_CROSSTABLE players."""
    if format == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if len(rows) > MAX_CROSSTABLE:
        raise Refused(
            f"a crosstable of {len(rows):,} players, more than a table or CSV shows (a column each, "
            f"{MAX_CROSSTABLE} at most); the json format lists each player's pairings alone, and filters "
            "choose a tournament's games"
        )
    shown = _crosstable_cells(rows, NAME_WIDTH if format == "table" else None)
    if format == "csv":
        return render(shown, "csv")
    if not shown:
        return "no games between two named players\n" if matched else "no records\n"
    return _table(shown, disable_numparse=True) + _unfinished_note(rows)


def _crosstable_cells(rows: list[dict], width: int | None) -> list[dict]:
    """The crosstable's rows as shown, names cut to `width` columns (None: whole)."""
    numbers = {row["player"]: str(number) for number, row in enumerate(rows, 1)}
    return [
        {
            "#": numbers[row["player"]],
            "player": row["player"] if width is None else _cut(row["player"], width),
            **{number: "" for number in numbers.values()},
            numbers[row["player"]]: "×",
            **{numbers[opponent]: _pairing_cell(pairing) for opponent, pairing in row["opponents"].items()},
            "score": _points(row["score"]),
            **{total: str(row[total]) for total in _TOTALS},
        }
        for row in rows
    ]


def _pairing_cell(pairing: dict) -> str:
    """A pairing's score over its finished games and their number, `*` when some are unfinished."""
    finished = pairing["games"] - pairing["unfinished"]
    return (f"{_points(pairing['score'])}/{finished}" if finished else "") + "*" * bool(pairing["unfinished"])


def _points(score: float) -> str:
    """A score as crosstables write it: 1½, ½, 2."""
    whole, half = divmod(round(score * 2), 2)
    return (str(whole) if whole or not half else "") + "½" * half


def _cut(name: str, width: int) -> str:
    """`name` in at most `width` columns of a terminal, cut with … when longer."""
    if columns(name) <= width:
        return name
    kept, used = [], 1  # (the …)
    for char in name:
        used += columns(char)
        if used > width:
            break
        kept.append(char)
    return "".join(kept) + "…"


def invalid_note(count: int) -> str:
    """The line under the score table and the crosstable (as tables) that says how many invalid records
    they count, as their results say; "" for none."""
    if not count:
        return ""
    return f"{plural(count, 'invalid record')} counted, each as its result says (--valid counts the valid alone)\n"


def own_games_note(count: int) -> str:
    """The note under the score table and the crosstable that says how many games of a player against
    themselves they leave out (`Archive.own_games`); "" for none."""
    if not count:
        return ""
    games = plural(count, "game")
    return f"{games} of a player against themselves not counted (query --player finds {'it' if count == 1 else 'them'})"


def _unfinished_note(rows: list[dict]) -> str:
    """The line under the crosstable that names each pairing's unfinished games."""
    standing = {row["player"]: number for number, row in enumerate(rows)}
    pairings = [
        f"{row['player']} v {opponent} ({plural(pairing['unfinished'], 'game')})"
        for number, row in enumerate(rows)
        for opponent, pairing in row["opponents"].items()
        if pairing["unfinished"] and standing[opponent] > number
    ]
    return f"* unfinished, not counted: {'; '.join(pairings)}\n" if pairings else ""


TREE_HEADINGS = {
    "draws_percent": "draws %",
    "won_percent": "won %",
    "drawn_percent": "drawn %",
    "lost_percent": "lost %",
    "score": "score %",
    "average_ply": "average ply",
}
TREE_COUNTS = ("white", "draws", "black", "won", "drawn", "lost", "children", "sides", "game", "variant")  # in JSON;
# the table shows shares, headed by the sides' names (and a column of the game, of the variant, when the tree spans several)


def tree_text(nodes: list[Node], format: str) -> str:
    """`lusoria tree`: nested JSON, a table with one row per line of plies, or an indented tree;
    the table gives the shares of the finished games in percent, with one decimal, each side's
    headed by the name its games give it (`defenders %`)."""
    from lusoria.archive.tree import games_of, several_rule_sets, sides_of

    if format == "json":
        return json.dumps([node.as_dict() for node in nodes], indent=2) + "\n"
    white, black = sides_of(nodes)
    headings = {**TREE_HEADINGS, "white_percent": f"{white} %", "black_percent": f"{black} %"}
    several = len(games_of(nodes)) > 1  # a ply of each game is a row of its own: the rows say their game
    rule_sets = several_rule_sets(nodes)  # and of each rule set: the rows say theirs
    rows = []

    def walk(nodes: list[Node], line: str, level: int) -> None:
        for node in nodes:
            ply = "· " * level + node.ply if format == "tree" else (line + " " + node.ply).strip()
            row = {"ply": ply, "game": node.game or "?"} if several else {"ply": ply}
            if rule_sets:
                row["variant"] = node.variant or "?"
            rows.append(
                row
                | {
                    headings.get(name, name): value
                    for name, value in node.as_dict().items()
                    if name not in TREE_COUNTS and name != "ply"
                }
            )
            walk(node.children, ply, level + 1)

    walk(nodes, "", 0)
    return _table(rows, floatfmt=".1f") if rows else "no plies played from this position\n"


def skipped_text(skipped: list[SkippedDuplicate], most: int | None) -> str:
    """The duplicates an import skipped, a line each, the first `most` of them (None: all) and how
    many more."""
    named = skipped if most is None else skipped[:most]
    more = len(skipped) - len(named)
    return "".join(f"{duplicate}\n" for duplicate in named) + (
        f"and {plural(more, 'more duplicate')}: --all-duplicates names every one\n" if more else ""
    )


def removed_text(removed: list[dict], db: str, dry_run: bool = False) -> str:
    """What `lusoria remove` says: each record removed (`Archive.remove`), where it was read, then the count;
    with `dry_run`, those it would remove."""
    done = "would be removed" if dry_run else "removed"
    lines = [f"record {row['id']} ({row['path'] or '?'}:{row['line'] or '?'}): {done}\n" for row in removed]
    counted = (
        f"would remove {plural(len(removed), 'record')} (--dry-run: none removed)"
        if dry_run
        else (f"removed {plural(len(removed), 'record')}")
    )
    return "".join(lines) + f"{db}: {counted}\n"
