"""Coverage-guided fuzzing of the reader and the validators with atheris.

    pip install -e '.[fuzz]'
    python fuzz/harness.py --game tablut --seconds 600      # or latrunculi, laquet

Inputs are seeded from the samples and the conformance corpora. A crash (any exception
out of `check`, which must turn every problem into diagnostics) stops the run and
leaves the input in fuzz/crashes/; turn it into a regression test in
tests/test_fuzz_regressions.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from lusoria.notation.reader import split_records
    from lusoria.validator.replay import check

HERE = Path(__file__).resolve().parent
HEADERS = {
    "tablut": ['[Game "tablut"]\n', '[Game "tablut"]\n[Variant "linnaeus"]\n',
               '[Game "tablut"]\n[Rules "no-move=passes throne-hostile=always king-capture=2"]\n'],
    "latrunculi": ['[Game "latrunculi"]\n', '[Game "latrunculi"]\n[Variant "dux"]\n',
                   '[Game "latrunculi"]\n[Variant "piso"]\n[Board "6x5"]\n[Rules "pieces=6"]\n'],
    "laquet": ['[Game "laquet"]\n', '[Game "laquet"]\n[Rules "both-dice=may leftover=none"]\n'],
}


def one_input(game: str):
    headers = HEADERS[game]

    def test(data: bytes) -> None:
        provider = atheris.FuzzedDataProvider(data)
        header = headers[provider.ConsumeIntInRange(0, len(headers) - 1)]
        text = provider.ConsumeUnicodeNoSurrogates(len(data))
        check(header + text)
        for source in split_records(text.splitlines(keepends=True)):
            check(source)

    return test


def seeds(game: str, folder: Path) -> None:
    """Movetext of the samples and corpora of `game`, one file each, as the starting corpus."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = list((HERE.parent / "samples").rglob("*.lgn"))
    conformance = HERE.parent.parent / "shared" / "conformance"
    if conformance.is_dir():
        sources += sorted(conformance.glob(f"{game}*.lgn"))
    for index, path in enumerate(sources):
        with open(path, encoding="utf-8") as handle:
            for number, record in enumerate(split_records(handle)):
                if f'"{game}"' in record.text and number < 40:
                    movetext = record.text.split("\n\n", 1)[-1]
                    (folder / f"{index}-{number}").write_bytes(b"\x00" + movetext.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(HEADERS), required=True)
    parser.add_argument("--seconds", type=int, default=60)
    options, rest = parser.parse_known_args()
    corpus = HERE / "corpus" / options.game
    seeds(options.game, corpus)
    crashes = HERE / "crashes"
    crashes.mkdir(exist_ok=True)
    atheris.Setup([sys.argv[0], f"-max_total_time={options.seconds}", f"-artifact_prefix={crashes}/",
                   "-max_len=4096", "-rss_limit_mb=4096", *rest, str(corpus)], one_input(options.game))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
