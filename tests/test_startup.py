"""Start-up: `lusoria validate` loads only what it uses, and Lark's compiled parsers are
kept between runs in the user's cache folder."""

import os
import subprocess
import sys
from pathlib import Path

from lusoria import cli, output
from lusoria.archive.reading import DEFAULT_TIMEOUT
from lusoria.notation import reader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def run_lusoria(*args: str, cache: Path, code: str | None = None) -> subprocess.CompletedProcess:
    """`lusoria ARGS` in a fresh interpreter (or `code` run with ARGS as its arguments)."""
    command = ["-c", code] if code else ["-m", "lusoria.cli"]
    return subprocess.run(
        [sys.executable, *command, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
    )


# the modules a command leaves loaded (-X importtime does not list a module that importlib.import_module loads)
LOADED = (
    "import atexit, runpy, sys; atexit.register(lambda: print(*sys.modules, file=sys.stderr)); "
    "runpy.run_module('lusoria.cli', run_name='__main__')"
)


def test_validate_does_not_load_the_archive_pictures_or_process_pools(tmp_path):
    result = run_lusoria("validate", "--jobs", "1", str(SAMPLES / "tablut" / "escape.lgn"), cache=tmp_path, code=LOADED)
    assert result.returncode == 0, result.stderr
    loaded = set(result.stderr.split())
    assert "lusoria.validator.replay" in loaded  # the measurement itself works
    assert not loaded & {"lusoria.archive", "sqlite_utils", "tabulate", "lusoria.svg", "concurrent.futures"}
    assert "lusoria.validator.tablut" in loaded  # the registry loads the rules of the games it meets
    assert not loaded & {"lusoria.validator.laquet", "lusoria.validator.latrunculi"}


def test_version_and_help_load_neither_the_library_nor_sqlite(tmp_path):
    """`lusoria --version` and `lusoria query --help` answer as soon as Python starts: they load
    neither the library nor the rules, the reader, SQLite's wrappers or the archive's code
    (BENCHMARKS.md measures them; no timing here)."""
    for args in (["--version"], ["query", "--help"], ["tree", "--help"]):
        result = run_lusoria(*args, cache=tmp_path, code=LOADED)
        assert result.returncode == 0, result.stderr
        loaded = set(result.stderr.split())  # lusoria.api is there, as a lazy module that has not run
        assert "lusoria.options" in loaded  # the measurement itself works
        assert not loaded & {
            "lusoria.validator.replay",
            "lusoria.validator.games",
            "lusoria.formats",
            "lusoria.notation.reader",
            "sqlite_utils",
            "sqlite3",
            "lusoria.archive.commands",
            "lusoria.archive.search",
            "tabulate",
            "lark",
        }, (args, sorted(loaded))
    assert "lusoria, version" in run_lusoria("--version", cache=tmp_path).stdout
    assert "tablut" in run_lusoria("random", "--help", cache=tmp_path).stdout  # the games, named when shown


def test_the_cli_takes_its_formats_and_timeout_from_their_homes():
    assert cli.format_option(lambda: None).__click_params__[0].type.choices == output.FORMATS
    assert cli.sql_timeout() == DEFAULT_TIMEOUT


def test_a_cached_parser_reads_as_a_fresh_one(tmp_path):
    record = str(SAMPLES / "errors" / "syntax.lgn")
    fresh = run_lusoria("validate", "--jobs", "1", record, cache=tmp_path)
    assert (tmp_path / "lusoria" / "tablut.lark").exists()
    cached = run_lusoria("validate", "--jobs", "1", record, cache=tmp_path)
    assert (cached.returncode, cached.stdout, cached.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert fresh.returncode == 1 and "error[syntax]" in fresh.stdout


def test_no_cache_when_its_folder_cannot_be_made(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert reader.cache_file("tablut", "lark") is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert reader.cache_file("tablut", "lark") == str(tmp_path / "lusoria" / "tablut.lark")
