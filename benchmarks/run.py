"""lusoria against its anchors (python-chess, pgn-extract), side by side in one run.

    pip install -e '.[bench]'      # python-chess; pgn-extract: apt-get install pgn-extract
    python benchmarks/run.py                       # the whole suite (several minutes)
    python benchmarks/run.py --quick               # small corpora, a smoke run
    python benchmarks/run.py --markdown BENCHMARKS.md

Corpora and the query archive are generated with lusoria's own random game generator
(fixed seeds) and kept in benchmarks/.cache. Every figure is the median of --repeat runs.
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import io
import os
import platform
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from lusoria.api import format_record, random_record
from lusoria.archive import Archive, Filters
from lusoria.archive.schema import SCHEMA_VERSION
from lusoria.formats import read_text
from lusoria.formats.sources import read_sources
from lusoria.notation.model import Ply
from lusoria.notation.reader import parse_record, scan_tags, split_records
from lusoria.notation.writer import write_record
from lusoria.validator.fit import fitting_rules
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
CORPORA = [
    ("tablut", "seed"),
    ("latrunculi", "seneca"),
    ("latrunculi", "piso"),
    ("latrunculi", "petteia"),
    ("latrunculi", "dux"),
    ("laquet", "seed"),
]  # also the query archive's mix
FAMILY = [("copenhagen", "standard"), ("brandubh", "standard")]  # the tafl family: validated, not in the archive
# catalogue variants of the generic tafl game on the larger boards (issue 40): with and without encirclement
LARGE_TAFL = [
    ("hnefatafl", "historical-hnefatafl-13x13"),
    ("hnefatafl", "copenhagen-hnefatafl-13x13"),
    ("hnefatafl", "tablut-19x19"),
    ("hnefatafl", "alea-evangelii-strong-19x19"),
]
REAL_CSV = (
    HERE.parent.parent / "shared/real/tafl/csv/copenhagen.csv"
)  # the tafl engines' real games, read where they are
PGN_EXTRACT = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")


def median_time(action, repeat: int) -> float:
    return median_times(action, repeat)[0]


def median_times(action, repeat: int) -> tuple[float, float]:
    """The median wall time of `repeat` runs of `action`, and the median CPU time this process
    spent in them (what they cost, whatever else the machine ran)."""
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times), statistics.median(cpu)


# Runs a command and prints its peak resident memory: started from this small process, the
# command's figure is its own, not that of the large benchmark process it would be forked from.
PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
    "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def run_process(command: list[str], repeat: int) -> tuple[float, int]:
    """Median wall time (start-up included) and the largest peak resident memory (KiB) of a command."""
    times, peak = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        output = subprocess.run([sys.executable, "-c", PEAK, *command], capture_output=True, text=True).stdout
        times.append(time.perf_counter() - start)
        peak = max(peak, int(output))
    return statistics.median(times), peak


def alternated(commands: dict[str, list[list[str]]], repeat: int, before=lambda: None) -> dict[str, float]:
    """The median wall time of each entry's commands, started together and waited for; the
    entries run in turn, round after round, so that the machine's drift falls on all alike
    (`before` runs before each entry, untimed)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, group in commands.items():
            before()
            start = time.perf_counter()
            running = [
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for command in group
            ]
            for process in running:
                process.wait()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(found) for name, found in times.items()}


# -- corpora ------------------------------------------------------------------------------------


def corpus(game: str, variant: str, plies: int) -> tuple[Path, int, int]:
    """A file of random legal games of about `plies` plies (games of at most 200 plies)."""
    path = CACHE / f"{game}-{variant}-{plies}.lgn"
    if not path.exists():
        rules, rng = GAMES[game](variant=variant), random.Random(f"{game}-{variant}")
        texts, total = [], 0
        while total < plies:
            record = random_record(rules, rng, 200, len(texts) + 1)
            total += len(record.main.plies)
            texts.append(write_record(record))
        path.write_text("\n".join(texts))
    text = path.read_text()
    reports = [check(source) for source in split_records(io.StringIO(text))]
    return path, sum(r.plies for r in reports), len(reports)


def records_corpus(game: str, variant: str, records: int) -> tuple[Path, int]:
    """A file of `records` random legal games (at most 200 plies) and its plies: 1,000 games
    generated with a fixed seed, repeated for larger counts (a throughput measurement)."""
    base = CACHE / f"{game}-{variant}-records-1000.lgn"
    if not base.exists():
        rules, rng = GAMES[game](variant=variant), random.Random(f"{game}-{variant}-records")
        texts = [write_record(random_record(rules, rng, 200, index + 1)) for index in range(1000)]
        base.write_text("\n".join(texts) + "\n")
    plies = sum(check(source, keep=False).plies for source in read_sources(str(base)))
    return repeated(base, records // 1000), plies * (records // 1000)


def parts(path: Path, count: int) -> list[Path]:
    """`path`'s records cut into `count` files of about as many plies each (cached)."""
    found = [path.with_name(f"{path.stem}-part{index + 1}of{count}{path.suffix}") for index in range(count)]
    if not all(part.exists() for part in found):
        sources = list(read_sources(str(path)))
        plies = [check(source, keep=False).plies for source in sources]
        total, done, index = sum(plies), 0, 0
        texts: list[list[str]] = [[] for _ in found]
        for source, played in zip(sources, plies):
            texts[min(index, count - 1)].append(source.text)
            done += played
            index = done * count // max(total, 1)
        for part, kept in zip(found, texts):
            part.write_text("".join(kept))
    return found


def repeated(path: Path, copies: int) -> Path:
    """`path` written `copies` times over, one after the other (cached)."""
    if copies == 1:
        return path
    copy = path.with_name(f"{path.stem}-x{copies}{path.suffix}")
    if not copy.exists():
        text = path.read_text()
        copy.write_text("\n".join([text.rstrip("\n") + "\n"] * copies))
    return copy


def chess_corpus(plies: int) -> tuple[Path, int, int]:
    """Random legal chess games (at most 190 plies) with as many plies, by python-chess."""
    import chess
    import chess.pgn

    path, count = CACHE / f"chess-{plies}.pgn", CACHE / f"chess-{plies}.plies"
    if not path.exists() or not count.exists():
        rng, games, total = random.Random(1), [], 0
        while total < plies:
            board, game = chess.Board(), chess.pgn.Game()
            node = game
            while not board.is_game_over() and board.ply() < 190:
                move = rng.choice(list(board.legal_moves))
                node = node.add_variation(move)
                board.push(move)
            game.headers["Result"] = board.result()
            total += board.ply()
            games.append(str(game))
        path.write_text("\n\n".join(games) + "\n")
        count.write_text(f"{total} {len(games)}")
    total, games = map(int, count.read_text().split())
    return path, total, games


# -- measurements -----------------------------------------------------------------------------------


class Table:
    def __init__(self):
        self.rows: list[list[str]] = []

    def add(self, what: str, rate: float, unit: str, anchor: float | None = None, target: str = "", note: str = ""):
        ratio = f"{rate / anchor:.2f}" if anchor else ""
        self.rows.append([what, f"{rate:,.0f} {unit}", ratio, target, note])
        print(f"  {what:<58} {rate:>12,.0f} {unit:<10} {ratio:>6} {target:<8} {note}", flush=True)

    def markdown(self) -> str:
        lines = ["| measurement | speed | ratio | target | note |", "| --- | ---: | ---: | --- | --- |"]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)


def chess_anchors(path: Path, plies: int, games: int, repeat: int) -> dict[str, float]:
    import chess.pgn

    def each(function):
        def action():
            with open(path) as handle:
                while function(handle):
                    pass

        return action

    read = median_time(each(chess.pgn.read_game), repeat)
    headers = median_time(each(chess.pgn.read_headers), repeat)
    skip = median_time(each(chess.pgn.skip_game), repeat)
    return {"read_game": plies / read, "read_headers": games / headers, "skip_game": games / skip}


def lusoria_in_process(path: Path, plies: int, records: int, repeat: int) -> dict[str, float]:
    def read():
        for source in read_sources(str(path)):
            parse_record(source)

    def headers():
        for source in read_sources(str(path)):
            scan_tags(source.text)

    def validate():
        for source in read_sources(str(path)):
            check(source, keep=False)

    def fmt():
        for source in read_sources(str(path)):
            format_record(source)

    return {
        "read": plies / median_time(read, repeat),
        "headers": records / median_time(headers, repeat),
        "validate": plies / median_time(validate, repeat),
        "fmt": plies / median_time(fmt, repeat),
    }


def html_sizes() -> dict[int, int]:
    """The size in bytes of the replay page of random seneca games of 100 and 1,000 plies."""
    from lusoria.api import random_records, replay_page

    return {
        plies: len(replay_page(next(random_records("latrunculi", 1, seed=1, max_plies=plies))).encode())
        for plies in (100, 1000)
    }


def lusoria_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "lusoria.cli", *args]


# python-chess as a whole process too: start-up (the import of chess) included, as for lusoria
CHESS_COMMAND = "import sys, chess.pgn\nwith open(sys.argv[1]) as f:\n    while chess.pgn.read_game(f): pass"


def side_by_side(commands: list[list[str]], repeat: int) -> list[float]:
    """The median CPU time (user + system) of each single-process command, run in
    alternate rounds. On a machine shared with other work the wall time of a process
    measures the others' load too; its CPU time is what it takes on a core of its own."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for command, taken in zip(commands, times):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            taken.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return [statistics.median(taken) for taken in times]


def whole_commands(
    table: Table, counts: list[int], repeat: int, chess_rate: float, corpora: list[tuple[str, str]]
) -> None:
    """`lusoria validate --jobs 1` as a user runs it, start-up included, on `counts` records
    of each of `corpora`, against a python-chess process reading as many plies (alternate rounds);
    on 1,000 records also the same command on the pure-Python sources (LUSORIA_PURE_PYTHON=1)."""
    from lusoria import accelerator

    for records in counts:
        for game, variant in corpora:
            path, plies = records_corpus(game, variant, records)
            chess_path, chess_plies, _ = chess_corpus(plies // (records // 1000))
            chess_path, chess_plies = repeated(chess_path, records // 1000), chess_plies * (records // 1000)
            validate = lusoria_command("validate", "--jobs", "1", str(path))
            commands = [validate, [sys.executable, "-c", CHESS_COMMAND, str(chess_path)]]
            pure = records == 1000 and accelerator.compiled()
            if pure:
                commands.append(["env", f"{accelerator.PURE_SWITCH}=1", *validate])
            times = side_by_side(commands, repeat if records <= 1000 else 1)  # larger: one round (minutes each)
            ours, theirs = times[:2]
            table.add(
                f"{game} {variant}: lusoria validate --jobs 1, {records:,} records ({plies:,} plies)",
                plies / ours,
                "plies/s",
                chess_plies / theirs,
                ">= 2",
                f"python-chess process {chess_plies / theirs:,.0f} plies/s; "
                f"{plies / ours / chess_rate:.2f} against read_game in process; {accelerator.describe()}",
            )
            if pure:
                table.add(
                    f"{game} {variant}: the same, pure Python ({accelerator.PURE_SWITCH}=1)",
                    plies / times[2],
                    "plies/s",
                    chess_plies / theirs,
                    "",
                    f"the compiled modules are {times[2] / ours:.2f}x as fast",
                )


def csv_rows(table: Table, repeat: int) -> None:
    """`lusoria validate --jobs 1` on the tafl engines' real Copenhagen CSV file (`REAL_CSV`, when it is
    there), start-up included: the reader reads each game's capture lists as the site writes them
    (`SiteClaims`), which the validator's one replay of the game checks."""
    from lusoria import accelerator

    if not REAL_CSV.exists():
        print(f"  {REAL_CSV} is not there: the CSV row is left out")
        return
    plies = sum(check(source, keep=False).plies for source in read_sources(str(REAL_CSV)))
    [seconds] = side_by_side([lusoria_command("validate", "--jobs", "1", str(REAL_CSV))], repeat)
    table.add(
        f"copenhagen CSV (real, {plies:,} plies): lusoria validate --jobs 1",
        plies / seconds,
        "plies/s",
        note=accelerator.describe(),
    )


def warm_up() -> None:
    """One command run untimed: Lark's parser cache written before the timed runs."""
    warm, _ = records_corpus("tablut", "seed", 1000)
    subprocess.run(lusoria_command("validate", str(warm)), stdout=subprocess.DEVNULL)


def compile_package() -> None:
    """Write lusoria's bytecode, as installing it does (PYTHONDONTWRITEBYTECODE, set on some
    machines, would otherwise leave every command compiling its sources at start-up)."""
    import lusoria.archive
    import lusoria.grammar
    import lusoria.notation
    import lusoria.validator

    for package in (lusoria, lusoria.archive, lusoria.grammar, lusoria.notation, lusoria.validator):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1, legacy=False, maxlevels=0)


def archive_bytes(path: Path) -> dict[str, int]:
    """Where an archive's bytes go: its file's size for each table, with its indexes."""
    conn = sqlite3.connect(path)
    try:
        tables = {name: table for name, table in conn.execute("SELECT name, tbl_name FROM sqlite_master")}
        sizes: dict[str, int] = {}
        for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            table = tables.get(name, name)
            table = "records_fts" if table.startswith("records_fts") else table
            sizes[table] = sizes.get(table, 0) + size
        return dict(sorted(sizes.items(), key=lambda item: -item[1]))
    finally:
        conn.close()


def archive_records(count: int) -> tuple[Path, float | None, str]:
    """An archive of `count` random records of every game, with varied tags (cached), the
    seconds its import took in one process and when (an archive made by an earlier run: as
    that run wrote them beside it, else None)."""
    path = CACHE / f"archive-{count}-v{SCHEMA_VERSION}.db"
    source = CACHE / f"archive-{count}.lgn"
    timing = path.with_name(path.name + ".import")  # seconds and date, of the run that made it
    if path.exists() and source.exists():
        seconds, _, when = timing.read_text().partition(" ") if timing.exists() else ("", "", "")
        return path, float(seconds) if seconds else None, f"an earlier run, {when.strip()}"
    if not source.exists():
        archive_source(source, count)
    start = time.perf_counter()
    Archive(str(path)).import_paths([str(source)])
    seconds = time.perf_counter() - start
    timing.write_text(f"{seconds:.1f} {date.today()}\n")
    return path, seconds, "this run"


def archive_source(source: Path, count: int) -> None:
    """The records of the query archive: every game, players, events, sites and dates (fixed seed)."""
    rng = random.Random(7)
    with open(source, "w") as out:
        for index in range(count):
            game, variant = CORPORA[index % len(CORPORA)]
            rules = GAMES[game](variant=variant)
            record = random_record(rules, rng, rng.randint(10, 120), index + 1)
            year = rng.randint(1900, 2026)
            record.tags.update(
                White=f"Player {rng.randint(1, 500):03}",
                Black=f"Player {rng.randint(1, 500):03}",
                Event=f"Event {rng.randint(1, 200)}",
                Site=f"Site {rng.randint(1, 100)}",
                Date=rng.choice([f"{year}.{rng.randint(1, 12):02}.{rng.randint(1, 28):02}", f"{year}.??.??"]),
            )
            if index % 20 == 0:  # some invalid records: a result that contradicts the tag
                record.result = "1/2-1/2" if record.result != "1/2-1/2" else "1-0"
            if index % 50 == 0:
                record.main.plies[-1].comments.append(rng.choice(["a fine sacrifice", "the manuscript is torn"]))
            out.write(write_record(record) + "\n")


PATHOLOGICAL = {  # inputs of size n that a careless reader or validator would take more than linear time on
    "nested variations": lambda n: '[Game "tablut"]\n1. e3-c3 ' + "(1. e3-d3 " * (n // 10) + ")" * (n // 10) + " *",
    "one comment": lambda n: '[Game "tablut"]\n1. e3-c3 {' + "word " * n + "} *",
    "one line of plies": lambda n: '[Game "tablut"]\n' + "e3-c3 d1-d3 c3-e3 d3-d1 " * (n // 4) + "*",
    "syntax error at the end": lambda n: '[Game "tablut"]\n' + "{c} " * n + "e3-z9 *",
    "a tag value of escapes": lambda n: '[Game "tablut"]\n[Event "' + '\\"' * (n // 2) + '"]\n1. e3-c3 *',
}
BROKEN_AAGE_GAME = '{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "Moves": ["f1-f3" "d5-d2"]}'
PATHOLOGICAL_FILES = {  # (format, file of size n) that a careless reader would take more than linear time on
    "aage JSON of broken games": ("aage", lambda n: "[\n" + ",\n".join([BROKEN_AAGE_GAME] * (n // 25)) + "\n]"),
}

TABLUT_START = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
TABLUT_KING_E5 = "*********/*********/*********/*********/****K****/*********/*********/*********/********* b"
TABLUT_KING_HELD = "*********/*********/*********/****p****/****K****/****p****/*********/*********/********* *"
TABLUT_NEXT_TO_KING = "*********/*********/*********/*********/**pK*****/*********/*********/*********/********* *"
QUERIES = {
    "--game laquet": Filters(game="laquet"),
    "--variant dux": Filters(game="latrunculi", variant="dux"),
    "--white": Filters(white="Player 042"),
    "--black": Filters(black="Player 042"),
    "--player": Filters(player="Player 042"),
    "--event": Filters(event="Event 17"),
    "--site": Filters(site="Site 3"),
    "--date-from": Filters(date_from="2026.06"),
    "--date-to": Filters(date_to="1901"),
    "--result": Filters(result="1/2-1/2"),
    "--valid": Filters(valid=True),
    "--invalid": Filters(valid=False),
    "--rule result": Filters(rule="result"),
    "--tag Round=77": Filters(tags=[("Round", "77")]),
    "--text sacrifice": Filters(text="sacrifice"),
    "--position (tablut start)": Filters(position=TABLUT_START),
    "--date-to 1901 --include-unknown": Filters(date_to="1901", include_unknown=True),
    "--pattern (king on e5, Black to move)": Filters(pattern=TABLUT_KING_E5),
    "--pattern (a Muscovite on e6 and e4, the king between)": Filters(pattern=TABLUT_KING_HELD),
    "--material white<=4": Filters(material=["white<=4"]),
    "--material 'white<=6, black>=14' --for 5": Filters(material=["white<=6, black>=14"], material_for=5),
    "--material king=0": Filters(material=["king=0"]),
    "--positions (2 patterns)": Filters(positions=[TABLUT_KING_E5, "5:2,11:1,* *"]),
    "--records (a 2-ply Tablut beginning)": Filters(records=['[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n']),
    "--ending 'king captured'": Filters(ending="king captured"),
    "--tag 'Event=Event 1*' (a glob)": Filters(tags=[("Event", "Event 1*")]),
    "--text 'sacri*' (a prefix)": Filters(text="sacri*"),
    "--text player (every record)": Filters(text="player"),
    "--position (tablut start, either side to move)": Filters(position=TABLUT_START.split()[0]),
}
SLOW_QUERIES = {  # allowed 1 s
    "--pattern --symmetric (a Muscovite next to the king)": Filters(pattern=TABLUT_NEXT_TO_KING, symmetric=True),
    "--player (a name beyond ASCII, compared record by record)": Filters(player="Plåyer 042"),
}


# -- the suite -----------------------------------------------------------------------------------


def require_chess(parser: argparse.ArgumentParser) -> None:
    """python-chess, the anchor of the figures: without it, what to install (exit status 2)."""
    try:
        importlib.import_module("chess")
    except ImportError:
        parser.exit(
            2,
            f"{parser.prog}: python-chess is not installed: pip install -e '.[bench]' (or pip install chess); "
            "--archive-only and --tree-sizes run without it\n",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=int, default=300_000, help="plies per corpus (default 300,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--archive-records", type=int, default=100_000, help="records in the query archive")
    parser.add_argument("--huge-mb", type=int, default=0, help="also validate a file of this many MiB (memory)")
    parser.add_argument(
        "--records",
        default="1000,10000",
        help="records per game for the whole-command rows, in thousands' multiples (default 1000,10000)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="20,000 plies, 2 runs, a 5,000-record archive, 1,000 records"
    )
    parser.add_argument(
        "--markdown",
        type=Path,
        help="also write the results to this file (in BENCHMARKS.md: its results section, the rest kept)",
    )
    parser.add_argument("--archive-only", action="store_true", help="only the archive rows (size, queries)")
    parser.add_argument(
        "--large-tafl",
        action="store_true",
        help="only python-chess and the whole-command rows of the 13x13 and 19x19 tafl variants (issue 40)",
    )
    parser.add_argument(
        "--tree-sizes",
        help="only the move tree's rows (issue 42) on archives of these many "
        "records, e.g. 10000,100000: from the sums and from the games",
    )
    options = parser.parse_args()
    if options.quick:
        options.plies, options.repeat, options.archive_records, options.records = 20_000, 2, 5_000, "1000"
    if not (options.tree_sizes or options.archive_only):
        require_chess(parser)
    CACHE.mkdir(exist_ok=True)
    table = Table()
    if options.tree_sizes:
        sizes = [int(size) for size in options.tree_sizes.split(",")]
        times = [tree_rows(table, size, options.repeat) for size in sizes]
        for what, first in times[0].items():  # how the time grew with the archive
            table.add(
                f"tree from the Tablut start, {what}: {sizes[-1]:,} records against {sizes[0]:,}",
                times[-1][what],
                "ms",
                first,
                "<= 1.5" if what == "depth 1" else "",
                note="ratio of the CPU times from the sums",
            )
        if options.markdown:
            write_report(options.markdown, tree_report(table, options), TREE_START, TREE_END)
            print(f"written to {options.markdown}")
        return
    if options.archive_only:
        archive_rows(table, options)
        if options.markdown:  # its own section (BENCHMARKS.md, "Issue 31"): the whole suite's results stay
            write_report(options.markdown, archive_report(table, options), ARCHIVE_START, ARCHIVE_END)
            print(f"written to {options.markdown}")
        return
    cores = os.cpu_count() or 1
    compile_package()

    print(f"chess corpus, {options.plies:,} plies", flush=True)
    chess_path, chess_plies, chess_games = chess_corpus(options.plies)
    anchors = chess_anchors(chess_path, chess_plies, chess_games, options.repeat)
    table.add("python-chess read_game", anchors["read_game"], "plies/s")
    if options.large_tafl:
        print("whole commands on 1,000 records of each large tafl board", flush=True)
        warm_up()
        whole_commands(table, [1000], options.repeat, anchors["read_game"], LARGE_TAFL)
        if options.markdown:  # its own section (BENCHMARKS.md, "Issue 40"): the whole suite's results stay
            write_report(options.markdown, large_tafl_report(table, options, chess_plies), TAFL_START, TAFL_END)
            print(f"written to {options.markdown}")
        return
    table.add("python-chess read_headers", anchors["read_headers"], "games/s")
    table.add("python-chess skip_game", anchors["skip_game"], "games/s")
    extract = {}
    if PGN_EXTRACT:
        for name, flags in (("-s", ["-s", "-o", "/dev/null"]), ("-r -s", ["-r", "-s"])):
            seconds, _ = run_process([PGN_EXTRACT, *flags, str(chess_path)], options.repeat)
            extract[name] = chess_plies / seconds
            table.add(f"pgn-extract {name} (whole process)", extract[name], "plies/s")
    else:
        print("  pgn-extract is not installed: its rows are left out (apt-get install pgn-extract)")

    counts = [int(count) for count in options.records.split(",")]
    print(f"whole commands on {', '.join(f'{c:,}' for c in counts)} records per game", flush=True)
    warm_up()
    whole_commands(table, counts, options.repeat, anchors["read_game"], CORPORA + FAMILY + LARGE_TAFL)
    csv_rows(table, options.repeat)

    for game, variant in CORPORA + FAMILY:
        path, plies, records = corpus(game, variant, options.plies)
        name = f"{game} {variant}"
        print(f"{name}: {plies:,} plies in {records:,} records", flush=True)
        inside = lusoria_in_process(path, plies, records, options.repeat)
        table.add(f"{name}: read (parse to the model)", inside["read"], "plies/s", anchors["read_game"])
        table.add(f"{name}: header scan", inside["headers"], "records/s", anchors["read_headers"], ">= 1")
        table.add(f"{name}: validate, in process", inside["validate"], "plies/s", anchors["read_game"], ">= 2")
        table.add(f"{name}: fmt, in process", inside["fmt"], "plies/s", anchors["read_game"])
        with tempfile.TemporaryDirectory() as scratch:
            archive = Path(scratch) / "a.db"
            timed = alternated(
                {
                    "one": [lusoria_command("validate", "--jobs", "1", str(path))],
                    "many": [lusoria_command("validate", "--jobs", str(cores), str(path))],
                    "parts": [lusoria_command("validate", "--jobs", "1", str(part)) for part in parts(path, cores)],
                    "import": [lusoria_command("import", "--db", str(archive), str(path))],
                },
                max(options.repeat, 5),  # the contested ratios: more rounds than the rest
                before=lambda: [found.unlink() for found in Path(scratch).iterdir()],
            )
        one, many = timed["one"], timed["many"]
        table.add(f"{name}: lusoria validate --jobs 1", plies / one, "plies/s", anchors["read_game"], ">= 2")
        table.add(
            f"{name}: lusoria validate --jobs {cores}",
            plies / many,
            "plies/s",
            plies / one,
            ">= 1.7",
            "ratio to --jobs 1",
        )
        table.add(
            f"{name}: {cores} parts at once, --jobs 1 each",
            plies / timed["parts"],
            "plies/s",
            plies / one,
            note="ratio to --jobs 1: what this machine's cores give work shared out perfectly, "
            f"the ceiling of --jobs {cores}",
        )
        if extract:
            table.add(
                f"{name}: validate --jobs {cores} against pgn-extract -s",
                plies / many,
                "plies/s",
                extract["-s"],
                ">= 0.2",
            )
        table.add(
            f"{name}: lusoria import", plies / timed["import"], "plies/s", plies / one, ">= 0.5", "ratio to validate"
        )

    rules = GAMES["tablut"](variant="linnaeus")  # records without their Rules tag: the search finds them
    rng = random.Random(3)
    records = [random_record(rules, rng, 120) for _ in range(20)]
    for record in records:
        record.tags.pop("Variant", None)
    seconds = median_time(lambda: [fitting_rules(r) for r in records], options.repeat) / len(records)
    table.add(
        "lusoria rules: linnaeus games written without their rules", seconds * 1000, "ms/record", target="< 1000 ms"
    )
    berserk = GAMES["hnefatafl"](variant="berserk-hnefatafl-11x11")  # the catalogue's options: 2,100 sets
    unfit = random_record(berserk, random.Random(7), 60)
    unfit.main.plies.append(Ply("a1-a2"))  # from an empty corner: under no set
    seconds = median_time(lambda: fitting_rules(unfit), options.repeat)
    table.add(
        "lusoria rules: a 60-ply hnefatafl record that fits no rule set",
        seconds * 1000,
        "ms/record",
        target="< 2000 ms",
        note="every one of 2,100 sets replayed to its first error (their Settings made by the first run)",
    )

    for name, make in PATHOLOGICAL.items():
        times = [median_time(lambda: check(make(n)), options.repeat) for n in (50_000, 100_000, 200_000)]
        table.add(f"time for 4x the input, {name}", times[2] / times[0], "x", target="~4 (linear)")
    for name, (format, make_file) in PATHOLOGICAL_FILES.items():
        texts = [make_file(n) for n in (50_000, 100_000, 200_000)]  # 2,000 to 8,000 games
        times = [median_time(lambda: list(read_text(text, format, "x")), options.repeat) for text in texts]
        table.add(f"time for 4x the input, {name}", times[2] / times[0], "x", target="~4 (linear)")

    sizes = html_sizes()
    table.add(
        "lusoria html, page of a 1,000-ply latrunculi game",
        sizes[1000] / 1000,
        "KB",
        target="< 1,000 KB",
        note=f"{(sizes[1000] - sizes[100]) / 900:,.0f} bytes per ply (against a 100-ply page)",
    )

    small, _, _ = corpus("tablut", "seed", 5_000)
    large, _, _ = corpus("tablut", "seed", 500_000)
    _, small_rss = run_process(lusoria_command("validate", "--jobs", "1", str(small)), 1)
    _, large_rss = run_process(lusoria_command("validate", "--jobs", "1", str(large)), 1)
    if options.huge_mb:
        huge = CACHE / f"huge-{options.huge_mb}.lgn"
        if not huge.exists():
            block = large.read_text() + "\n"
            with open(huge, "w") as out:
                for _ in range(options.huge_mb * 2**20 // len(block) + 1):
                    out.write(block)
        _, huge_rss = run_process(lusoria_command("validate", str(huge)), 1)
        table.add(
            f"peak memory, validate of a {huge.stat().st_size / 2**20:,.0f} MiB file",
            huge_rss / 1024,
            "MiB",
            target="< 200 MiB",
        )
    print(
        f"memory: validate {small.stat().st_size:,} bytes: {small_rss:,} KiB; "
        f"{large.stat().st_size:,} bytes (~100x): {large_rss:,} KiB",
        flush=True,
    )
    table.add(
        "peak memory, validate of a 100x larger file, minus the small one",
        large_rss - small_rss,
        "KiB",
        target="a few MB",
    )

    archive_rows(table, options)

    if options.markdown:
        write_report(options.markdown, report(table, options, chess_plies))
        print(f"written to {options.markdown}")


START, END = "<!-- results: written by benchmarks/run.py -->", "<!-- end of results -->"
ARCHIVE_START = "<!-- archive results: written by benchmarks/run.py --archive-only -->"
ARCHIVE_END = "<!-- end of archive results -->"


def write_report(path: Path, results: str, start: str = START, end: str = END) -> None:
    """The results into `path`: between its `start` and `end` markers when it has them
    (BENCHMARKS.md: the prose around them stays); else after its text, within the markers
    (the whole suite: as the whole file)."""
    text = path.read_text() if path.exists() else ""
    if start in text and end in text:
        before, rest = text.split(start, 1)
        results = before + start + "\n" + results + end + rest.split(end, 1)[1]
    elif text and start != START:
        results = text.rstrip("\n") + "\n\n" + start + "\n" + results + end + "\n"
    path.write_text(results)


def archive_rows(table: Table, options) -> None:
    """The archive's size for its input, its import, the time of each query, tree and figure in
    process (one core), and of the commands that answer at once, as whole processes."""
    print(f"archive of {options.archive_records:,} records", flush=True)
    path, imported, made = archive_records(options.archive_records)
    archive = Archive(str(path))
    source = CACHE / f"archive-{options.archive_records}.lgn"
    size, parts = path.stat().st_size, archive_bytes(path)
    table.add(
        f"archive size: {source.stat().st_size / 2**20:,.1f} MiB of records imported",
        size / 2**20,
        "MiB",
        source.stat().st_size / 2**20,
        "< 3",
        "ratio to the input; "
        + ", ".join(f"{name} {part / size:.0%}" for name, part in parts.items() if part / size >= 0.01),
    )
    if imported is not None:
        table.add(
            f"archive import, {options.archive_records:,} records, one process",
            imported,
            "s",
            note=f"lusoria import --jobs 1, into a new archive (made by {made})",
        )
    for flag, filters in QUERIES.items():
        filters.limit = 100
        seconds = median_time(lambda: archive.query(filters), max(options.repeat, 5))
        table.add(f"query {flag} (first 100)", seconds * 1000, "ms", target="< 100 ms")
    for flag, filters in SLOW_QUERIES.items():
        filters.limit = 100
        seconds = median_time(lambda: archive.query(filters), max(options.repeat, 5))
        table.add(f"query {flag} (first 100)", seconds * 1000, "ms", target="< 1000 ms")
    deep = archive.sql("SELECT id FROM records WHERE game = 'tablut' AND plies >= 40 ORDER BY id LIMIT 1")[0]["id"]
    report = check(archive.sql(f"SELECT text FROM record_texts WHERE id = {deep}")[0]["text"])
    assert report.rules is not None
    after_20 = Filters(position=report.rules.format_position(report.positions[20]), limit=100)
    seconds = median_time(lambda: archive.query(after_20), max(options.repeat, 5))
    table.add(
        "query --position (after ply 20 of a record: a short token, boards compared) (first 100)",
        seconds * 1000,
        "ms",
        target="< 100 ms",
    )
    laquet = "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
    for what, action, target in (
        (
            "tree from ply 20 of a Tablut record, depth 3 (short tokens, boards compared)",
            lambda: archive.tree(from_id=deep, ply=20, depth=3),
            "< 1000 ms",
        ),
        ("tree from the Tablut start, depth 1", lambda: archive.tree(TABLUT_START), "< 100 ms"),
        (
            "tree from the Tablut start, depth 1, --valid --event 'Event 17'",
            lambda: archive.tree(TABLUT_START, filters=Filters(valid=True, event="Event 17")),
            "< 100 ms",
        ),
        ("tree from the Laquet start, depth 1", lambda: archive.tree(laquet), "< 100 ms"),
        (
            "tree from the Tablut start, depth 1, --variations",
            lambda: archive.tree(TABLUT_START, variations=True),
            "< 100 ms",
        ),
        (
            "tree from the Tablut start, depth 1, --sort score --min-games 100",
            lambda: archive.tree(TABLUT_START, sort="score", min_games=100),
            "< 100 ms",
        ),
        (
            "tree from the Tablut start, depth 1, --symmetric",
            lambda: archive.tree(TABLUT_START, filters=Filters(symmetric=True)),
            "< 100 ms",
        ),
        (
            "tree from the Tablut start, depth 1, --player (a repertoire)",
            lambda: archive.tree(TABLUT_START, filters=Filters(player="Player 042")),
            "< 100 ms",
        ),
        ("tree from the Tablut start, depth 3", lambda: archive.tree(TABLUT_START, depth=3), "< 1000 ms"),
        (
            "tree from the Tablut start, depth 3, --symmetric",
            lambda: archive.tree(TABLUT_START, depth=3, filters=Filters(symmetric=True)),
            "",
        ),
        ("stats", lambda: archive.stats(), "< 100 ms"),
        ("players list (the score table)", lambda: archive.players(), "< 100 ms"),
    ):
        seconds = median_time(action, max(options.repeat, 5))
        table.add(what, seconds * 1000, "ms", target=target)
    compile_package()
    bare = [sys.executable, "-c", "pass"]
    for args in (["--version"], ["query", "--help"]):
        command = [str(Path(sys.executable).with_name("lusoria")), *args]
        wall = median_time(lambda: subprocess.run(command, stdout=subprocess.DEVNULL), max(options.repeat, 10))
        cpu, python = side_by_side([command, bare], max(options.repeat, 10))
        table.add(
            f"lusoria {' '.join(args)}, the whole process",
            wall * 1000,
            "ms",
            target="< 100 ms",
            note=f"CPU {cpu * 1000:.0f} ms; python -c pass: CPU {python * 1000:.0f} ms",
        )


TREE_START = "<!-- tree results: written by benchmarks/run.py --tree-sizes -->"
TREE_END = "<!-- end of tree results -->"


def tree_rows(table: Table, count: int, repeat: int) -> dict[str, float]:
    """The archive of `count` records: its size for its input, what `next_plies` takes of it, and the
    move tree from the Tablut start at depth 1 and 3, with and without --symmetric, read from the
    sums (`next_plies`) and from the games alone (issue 42): the CPU time of this process (one
    thread, the archive in the page cache: the wall time of a quiet machine), the wall time beside
    it (on a shared machine, also the time the others took)."""
    from lusoria.archive import commands

    print(f"archive of {count:,} records", flush=True)
    path, imported, made = archive_records(count)
    archive = Archive(str(path))
    source = CACHE / f"archive-{count}.lgn"
    size, parts = path.stat().st_size, archive_bytes(path)
    table.add(
        f"{count:,} records: archive size, {source.stat().st_size / 2**20:,.1f} MiB of records",
        size / 2**20,
        "MiB",
        source.stat().st_size / 2**20,
        "<= 3",
        f"ratio to the input; next_plies "
        f"{parts.get('next_plies', 0) / 2**20:.2f} MiB ({parts.get('next_plies', 0) / size:.1%})"
        + (f"; import {imported:.0f} s, one process ({made})" if imported else ""),
    )
    summable = commands.summable
    times = {}
    for depth, symmetric in ((1, False), (1, True), (3, False), (3, True)):
        filters = Filters(symmetric=symmetric)
        asked = f"depth {depth}" + (", --symmetric" if symmetric else "")
        what = f"{count:,} records: tree from the Tablut start, {asked}"
        wall, cpu = median_times(lambda: archive.tree(TABLUT_START, depth=depth, filters=filters), max(repeat, 5))
        commands.summable = lambda *_: None
        try:
            games_wall, games_cpu = median_times(
                lambda: archive.tree(TABLUT_START, depth=depth, filters=filters), repeat
            )
        finally:
            commands.summable = summable
        table.add(
            what,
            cpu * 1000,
            "ms",
            target="< 30 ms" if depth == 1 else "< 1000 ms" if symmetric else "",
            note=f"wall {wall * 1000:,.0f} ms; from the games: {games_cpu * 1000:,.0f} ms (wall {games_wall * 1000:,.0f})",
        )
        times[asked] = cpu * 1000
    return times


def tree_report(table: Table, options) -> str:
    from lusoria import accelerator

    return (
        f"Measured on {date.today()} ({machine()}; lusoria {accelerator.describe()}; archive schema version "
        f"{SCHEMA_VERSION}) with "
        f"`python benchmarks/run.py --tree-sizes {options.tree_sizes} --repeat {options.repeat}`.\n\n"
        f"{table.markdown()}\n"
    )


TAFL_START = "<!-- large tafl results: written by benchmarks/run.py --large-tafl -->"
TAFL_END = "<!-- end of large tafl results -->"


def large_tafl_report(table: Table, options, chess_plies: int) -> str:
    """The rows of a `--large-tafl` run, with what they were measured on."""
    from lusoria import accelerator

    return (
        f"Measured on {date.today()} ({machine()}; lusoria {accelerator.describe()}) with "
        f"`python benchmarks/run.py --large-tafl --plies {options.plies} --repeat {options.repeat}`; "
        f"chess corpus {chess_plies:,} plies.\n\n{table.markdown()}\n"
    )


def archive_report(table: Table, options) -> str:
    """The archive rows of an `--archive-only` run, with what they were measured on."""
    from lusoria import accelerator

    return (
        f"Measured on {date.today()} ({machine()}; lusoria {accelerator.describe()}; archive schema version "
        f"{SCHEMA_VERSION}) with `python benchmarks/run.py --archive-only --repeat {options.repeat} "
        f"--archive-records {options.archive_records}`.\n\n{table.markdown()}\n"
    )


def machine() -> str:
    """The machine, its Python and its load: `x86_64, 2 cores, Python 3.11.7, load average 0.5 at the end`."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, load average "
        f"{load:.1f} at the end"
    )


def report(table: Table, options, chess_plies: int) -> str:
    return (
        f"Measured on {date.today()} ({machine()}) with "
        f"`python benchmarks/run.py --plies {options.plies} --repeat {options.repeat} "
        f"--archive-records {options.archive_records} --records {options.records}`; chess corpus "
        f"{chess_plies:,} plies.\n\n{table.markdown()}\n"
    )


if __name__ == "__main__":
    main()
