import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing, suppress
from pathlib import Path

import pytest

# A process started in the background by a shell without job control (`cmd &` in a script)
# inherits SIGINT ignored, and Python then gives it no KeyboardInterrupt: the tests of Ctrl-C would
# fail, in this process and the commands it starts. They take Ctrl-C as a terminal delivers it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# pytest rewrites the asserts of every module of an installed plug-in's distribution, all of
# hypothesis among them: 1.2 to 1.7 s in each process, every run (PYTHONDONTWRITEBYTECODE keeps no
# rewritten module). The suite's asserts are in its own files, which are rewritten still.
for _hook in sys.meta_path:
    if "hypothesis" in getattr(_hook, "_must_rewrite", ()):
        _hook._must_rewrite.discard("hypothesis")
        _hook._marked_for_rewrite_cache.clear()

from hypothesis import HealthCheck, settings  # (after the rewriting hook is told)

ROOT = Path(__file__).resolve().parent.parent
# No test reads the user's own catalogue of tafl variants (~/.config/lusoria/tafl_variants.toml):
# an empty one, for this process and every process it starts; a test that wants one names its own
os.environ["LUSORIA_CATALOGUE"] = os.devnull
# Nor the plug-ins installed in its venv (entry points: lusoria.plugins); a test of them unsets it, and
# a plug-in's author runs the contract suite on theirs with `LUSORIA_NO_ENTRY_POINTS= pytest …`
os.environ.setdefault("LUSORIA_NO_ENTRY_POINTS", "1")
CONFORMANCE = ROOT.parent / "shared" / "conformance"

# No deadline and no "too slow" health check: nothing may fail because the machine is slow
# 40 examples a property, in the suite as in the mutation runs; `HYPOTHESIS_PROFILE=thorough pytest`: 200
settings.register_profile(
    "suite", max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", settings.get_profile("suite"), max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))

THROWAWAY = "LUSORIA_TEST_THROWAWAY"  # set: the run registers a game and a format no test is about


def pytest_configure(config):
    """With THROWAWAY set, the example plug-in's game and format (tests/plugin) are registered for
    the whole run, as a program registers its own: tests/system/test_registry.py runs the tests
    that read the registry's lists so, and none may break."""
    if os.environ.get(THROWAWAY):
        sys.path.insert(0, str(ROOT / "tests" / "plugin"))
        from lusoria_toys.moves import FORMAT
        from lusoria_toys.toytafl import ToyTafl

        from lusoria.formats import FORMATS
        from lusoria.validator.games import GAMES

        GAMES.register(ToyTafl)
        FORMATS.register(FORMAT)


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    """Rewrite the asserts of this run's test files into pytest's cache of rewritten modules (each
    file's `__pycache__`, checked against its source) before collecting, which then reads them:
    each of xdist's workers collects every file, and rewriting took two thirds of it (16 s each, on
    two cores at once). Worker k of n starts at the k-th n-th of the files and stops at the first one
    already cached (the next worker's): they share the work, and a second run rewrites only the
    files changed since. pytest writes none of its own where Python may not (PYTHONDONTWRITEBYTECODE,
    as here); these are the suite's, and go where pytest would put them. Should pytest's private
    functions change, collection rewrites each file as before."""
    if session.config.getoption("assertmode") != "rewrite" or session.config.pluginmanager.has_plugin("dsession"):
        return  # (xdist's controller collects nothing)
    worker = getattr(session.config, "workerinput", {"workerid": "gw0", "workercount": 1})
    here = session.config.invocation_params.dir
    files = sorted(
        {
            found
            for argument in session.config.args
            for path in [(here / argument.split("::")[0]).resolve()]
            for found in (path.rglob("test_*.py") if path.is_dir() else [path] if path.name.startswith("test_") else [])
        }
    )
    start = int(worker["workerid"].removeprefix("gw")) * len(files) // worker["workercount"]
    with suppress(ImportError):
        from _pytest.assertion import assertstate_key
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, get_cache_dir

        state = session.config.stash[assertstate_key]
        for path in files[start:]:
            pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
            try:
                if _read_pyc(path, pyc, state.trace) is not None:
                    break
                pyc.parent.mkdir(exist_ok=True)
                source_key, code = _rewrite_test(path, session.config)
                _write_pyc(state, code, source_key, pyc)
            except (OSError, SyntaxError, TypeError, ValueError):  # collection says what is wrong with the file
                continue


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """In xdist's workers, the tests marked `slow` first, the others in their order: worksteal
    (pyproject's addopts) then shares out the short ones, and no worker is left running a long
    test alone at the end while the other has finished. In one process (`-n 0`, the mutation
    runner's `-x`), the order stays as given."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def edit_tokens(tokens: list[str], kind: str, i: int, j: int) -> bool:
    """Apply one token edit in place — delete token i, duplicate token j before i, swap i and j —
    and say whether `kind` was one of these (the fuzz tests add edits of their own)."""
    if kind == "delete":
        if len(tokens) > 1:
            del tokens[i]
    elif kind == "duplicate":
        tokens.insert(i, tokens[j])
    elif kind == "swap":
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        return False
    return True


def located_inside(text: str, diagnostics) -> bool:
    """Every diagnostic points at a line of `text` and a column of that line (or just past its end)."""
    lines = text.split("\n")
    return all(1 <= d.line <= len(lines) and 1 <= d.column <= len(lines[d.line - 1]) + 1 for d in diagnostics)


MISSING_CONFORMANCE = (
    "{} is absent: no conformance corpora there; these *_valid.lgn, *_illegal.lgn and *.expected.tsv files, "
    "records judged by an independent implementation of the notation and rules contracts, live beside the "
    "project in the development workspace (../shared/conformance), not in the repository or the wheel"
)


def require_conformance() -> None:
    """Skip, saying why, when the conformance corpora are absent (a user's clone); in CI
    (CI=true), where they must be, fail instead."""
    if not CONFORMANCE.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CONFORMANCE} is absent, and CI=true needs the conformance corpora")
        pytest.skip(MISSING_CONFORMANCE.format(CONFORMANCE))


@pytest.fixture
def in_root(monkeypatch):
    """Run from the project root, so that paths in output read samples/…"""
    monkeypatch.chdir(ROOT)
    return ROOT


def waiting_briefly(monkeypatch) -> None:
    """Archives opened wait 50 ms for a lock another connection holds (5 s in use), so that a test of an
    archive another program holds does not wait long."""
    from lusoria.archive import reading, schema

    monkeypatch.setattr(reading, "WAIT", 0.05)

    connect_waiting = schema._connect

    def connect_waiting_briefly(path):
        db = connect_waiting(path)
        db.execute("PRAGMA busy_timeout = 50")
        return db

    monkeypatch.setattr(schema, "_connect", connect_waiting_briefly)


def connect(path) -> sqlite3.Connection:
    """A connection of SQLite's own to an archive, with the SQL function its view of texts reads
    (`record_texts`, compressed: archive/texts.py), as another program would open it."""
    from lusoria.archive.texts import add_functions

    conn = sqlite3.connect(path)
    add_functions(conn)
    return conn


def archive_copy(path: str, tmp_path: Path) -> str:
    """A copy of the archive at `path` (SQLite's backup: its WAL included), as tmp_path/old.db."""
    copied = str(tmp_path / "old.db")
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(copied)) as copy:
        source.backup(copy)
    return copied


def ctrl_c_when_ready(script: str, *args: str) -> tuple[int, str, str]:
    """Run `python -c script args…`, press Ctrl-C (SIGINT) once it prints "ready", and give its
    exit status, output and errors (a step that fails leaves no process behind)."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "ready\n"
        process.send_signal(signal.SIGINT)
        output, errors = process.communicate(timeout=120)
    finally:
        process.kill()
    return process.returncode, output, errors


@pytest.fixture
def deadline():
    """A test of worker processes that hangs fails after a minute, instead of stopping the suite."""

    def expired(signum, frame):
        raise TimeoutError("the test took more than a minute: a hang?")

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


def no_game_tag(written: str | None = None) -> str:
    """What a record with no Game tag, nor a slip for one, is told: the game whose ply it `written` first (by default
    the first known, of a text of no game's plies or of several's), the games to name (a snapshot holds them
    elided, `known_games_elided`)."""
    from lusoria.validator.games import known_games

    known = known_games()
    return (
        f'the record has no Game tag: begin it with one, as [Game "{written or known[0]}"] (known: {", ".join(known)})'
    )


def known_games_elided(text: str) -> str:
    """`text` with the registry's list of games (an unknown game's `known: …`) as `…`: a snapshot
    that held the list would break with every game registered (the test then asserts the list)."""
    from lusoria.validator.games import known_games

    return text.replace(f"(known: {', '.join(known_games())})", "(known: …)")


@pytest.fixture
def lusorias_own_tafl_games(monkeypatch):
    """Only lusoria's own tafl games name a CSV file's game by its board, for a test whose premise
    is theirs (one game a board size): a plug-in's 7×7 game makes a 7×7 file's game ambiguous, as it
    should (tests/system/test_registry.py runs such a test again with one)."""
    from lusoria.formats import aage, tafl

    own = [game for game in tafl.tafl_games() if game.__module__.startswith("lusoria.")]
    for reader in (tafl, aage):
        monkeypatch.setattr(reader, "tafl_games", lambda: own)


def built_in_formats() -> set[str]:
    """The names of lusoria's own formats, which its fixtures, samples and hooks cover (a plug-in's
    formats bring their own)."""
    from lusoria.formats import BUILT_IN

    return {entry.name for entry in BUILT_IN}
