"""`lusoria validate --jobs 2`, the whole command, with lusoria's worker pool (lusoria/workers.py)
against the standard library's `multiprocessing.Pool.imap` over the same chunks (the first
record in the parent, then `workers.chunks`, the workers' collector set alike), alternated
round after round on the corpora of benchmarks/run.py (BENCHMARKS.md, issue 35: a home-made
pool is kept only if the whole command is at least 10% faster with it).

    python benchmarks/pool.py [--repeat 7] [--plies 300000]
"""

from __future__ import annotations

import argparse
import sys

from run import CACHE, alternated, corpus, lusoria_command

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--plies", type=int, default=300_000)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    CACHE.mkdir(exist_ok=True)
    for game, variant in (("tablut", "seed"), ("latrunculi", "seneca"), ("laquet", "seed")):
        path, plies, records = corpus(game, variant, options.plies)
        arguments = ["validate", "--jobs", str(options.jobs), str(path)]
        timed = alternated({"workers": [lusoria_command(*arguments)],
                            "imap": [[sys.executable, "-c", IMAP, *arguments]]}, options.repeat)
        print(f"{game} {variant} ({records:,} records, {plies:,} plies), validate --jobs {options.jobs}: "
              f"lusoria.workers {timed['workers']:.3f} s, Pool.imap {timed['imap']:.3f} s "
              f"({timed['imap'] / timed['workers'] - 1:+.1%} for Pool.imap)", flush=True)


if __name__ == "__main__":
    main()
