"""`lusoria validate --jobs 2`, the whole command, with lusoria's worker pool (lusoria/workers.py)
against the standard library's `multiprocessing.Pool.imap` over the same chunks (the first
record in the parent, then `workers.chunks`, the workers' collector set alike), alternated
round after round on the corpora of benchmarks/run.py (BENCHMARKS.md, issue 35: a home-made
pool is kept only if the whole command is at least 10% faster with it). On a machine that
others share, the fastest round of each says more than the median: both are printed.

    python benchmarks/pool.py [--repeat 7] [--plies 300000]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from run import CACHE, corpus, lusoria_command

# `lusoria validate` with api.in_workers replaced by Pool.imap, in a process started the same way
IMAP = """
import gc, multiprocessing, sys
from functools import partial
from itertools import chain
from lusoria import api, workers

def chunk_results(function, chunk):
    return list(workers.mapped(function, chunk))

def in_pool(function, items, jobs, ahead=0):
    parts = workers.chunks(items)
    first = next(parts, [])
    yield from workers.mapped(function, first[:1])
    with multiprocessing.get_context("fork").Pool(jobs, gc.set_threshold, (workers.YOUNG_OBJECTS,)) as pool:
        for results in pool.imap(partial(chunk_results, function), chain([first[1:]], parts)):
            yield from results

api.in_workers = in_pool
from lusoria.cli import main
main(sys.argv[1:], prog_name="lusoria")
"""


def rounds(commands: dict[str, list[str]], repeat: int) -> dict[str, list[float]]:
    """The wall times of each command, run in turn, round after round."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--plies", type=int, default=300_000)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    CACHE.mkdir(exist_ok=True)
    for game, variant in (("tablut", "seed"), ("latrunculi", "seneca"), ("laquet", "seed")):
        path, plies, records = corpus(game, variant, options.plies)
        arguments = ["validate", "--jobs", str(options.jobs), str(path)]
        timed = rounds(
            {"workers": lusoria_command(*arguments), "imap": [sys.executable, "-c", IMAP, *arguments]}, options.repeat
        )
        ours, theirs = timed["workers"], timed["imap"]
        print(
            f"{game} {variant} ({records:,} records, {plies:,} plies), validate --jobs {options.jobs}, "
            f"{options.repeat} rounds: lusoria.workers fastest {min(ours):.3f} s, median "
            f"{statistics.median(ours):.3f} s; Pool.imap fastest {min(theirs):.3f} s "
            f"({min(theirs) / min(ours) - 1:+.1%}), median {statistics.median(theirs):.3f} s "
            f"({statistics.median(theirs) / statistics.median(ours) - 1:+.1%})",
            flush=True,
        )


if __name__ == "__main__":
    main()
