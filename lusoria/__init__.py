"""lusoria: parse, validate and archive records of ancient board games (lusoria.validator.games).

The library: `lusoria.api` (read, validate, format, show and convert records: `help(lusoria.api)`),
`lusoria.archive` (`Archive` and `Filters`: import, query, stats, export) and `lusoria.notation`
(the record model and its `walk`); docs/api.md shows each call, and the `lusoria` command mirrors them."""

from lusoria import accelerator

__version__ = "0.1.0"

accelerator.choose()  # the compiled rules modules, or their sources (lusoria/accelerator.py)


def build() -> str:
    """What runs: the modules compiled by mypyc, or the pure-Python sources and why
    (`lusoria --version`; lusoria/accelerator.py)."""
    return accelerator.describe()
