"""The compiled accelerator (lusoria/accelerator.py): the sources run when asked for, when
not built, or when newer than the compiled modules; the rules hold the same either way."""

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CONFORMANCE, MISSING_CONFORMANCE

from lusoria import accelerator
from lusoria.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOT = ("lusoria.validator.replay", "lusoria.validator.tafl", "lusoria.notation.plies")  # always compiled
PROBE = f"""import importlib
from pathlib import Path
from lusoria import accelerator
print(accelerator.describe())
print(*sorted({{Path(importlib.import_module(name).__file__).suffix for name in accelerator.built() or {HOT}}}))
"""
BUILT = Path(importlib.machinery.EXTENSION_SUFFIXES[0]).suffix  # .so, or .pyd on Windows


def probe(env: dict[str, str], cwd: Path = ROOT) -> list[str]:
    """What a fresh process says it runs, and the suffixes of the compiled modules' files."""
    finished = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=cwd)
    assert finished.returncode == 0, finished.stderr
    return finished.stdout.splitlines()


def test_the_version_says_what_runs():
    result = CliRunner().invoke(main, ["--version"])
    assert result.output == f"lusoria, version 0.1.0 ({accelerator.describe()})\n"
    assert accelerator.describe().startswith("compiled" if accelerator.compiled() else "pure Python: ")


def test_ci_runs_what_the_readme_builds_compiled():
    """CI (`CI` set, as `.ci/run` runs there) has a C compiler: a pure-Python build there means
    the build lost something it needs (as when sqlite-utils was missing from the build
    requirements and every compiled-only test was skipped, green)."""
    if not os.environ.get("CI") or accelerator.pure_requested():
        pytest.skip("not on CI, or pure Python asked for")
    assert accelerator.compiled(), accelerator.describe()


def test_the_switch_runs_the_sources():
    said, suffixes = probe({**os.environ, "LUSORIA_PURE_PYTHON": "1"})
    assert (said, suffixes) == ("pure Python: LUSORIA_PURE_PYTHON is set", ".py")
    said, suffixes = probe({**os.environ, "LUSORIA_PURE_PYTHON": "0"})
    assert said == accelerator.describe()
    assert suffixes == (BUILT if accelerator.compiled() else ".py")


def test_a_source_newer_than_its_compiled_module_runs_instead(tmp_path):
    """An edited rule must run as edited: the compiled modules are set aside, all together."""
    if not accelerator.compiled():
        pytest.skip(f"the accelerator is not in use here ({accelerator.describe()})")
    links = accelerator.installed_layout(ROOT, tmp_path / "links")
    shutil.copytree(links, tmp_path / "copy" / "lusoria", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "copy"), "LUSORIA_PURE_PYTHON": ""}
    assert probe(env, tmp_path) == ["compiled with mypyc", BUILT]  # the copy as built
    edited = tmp_path / "copy" / (accelerator.built()[-1].replace(".", "/") + ".py")
    later = time.time() + 10
    os.utime(edited, (later, later))
    assert probe(env, tmp_path) == [
        f"pure Python: {edited.name} is newer than its compiled module (pip install -e . again)",
        ".py",
    ]


def test_the_marked_modules_are_the_compiled_ones(tmp_path):
    """One rule (accelerator.MARK in a module's source) says what setup.py compiles: the rules
    modules and the reader's hot paths, and what the shared library of this build holds."""
    marked = accelerator.marked(accelerator.installed_layout(ROOT, tmp_path))
    assert set(HOT) <= set(marked)
    if accelerator.built():
        assert list(accelerator.built()) == marked


RULES_TESTS = [
    "tests/validator/test_tablut.py",
    "tests/validator/test_latrunculi.py",
    "tests/validator/test_laquet.py",
    "tests/validator/test_rule_edges.py",
    "tests/validator/test_fast_paths.py",
    "tests/system/test_conformance.py",
    "tests/validator/test_replay.py",
    "tests/validator/test_games.py",
    "tests/archive/test_positions.py",
    "tests/test_pickling.py",
]


@pytest.mark.slow
def test_the_rules_hold_in_pure_python():
    """The rules and replay tests, and those of what an import makes of positions, run again on
    the sources (the rest of the suite runs compiled), in one process (`-n 0`: worker processes
    of its own would each start and collect again, twice the CPU, beside the suite's workers)."""
    if not accelerator.compiled():
        pytest.skip("this run is pure Python already")
    finished = subprocess.run(
        # --assert=plain: rewriting the asserts of these files took a fifth of the run (run one that fails alone)
        [sys.executable, "-m", "pytest", "-x", "-n", "0", "-p", "no:cacheprovider", "--assert=plain", *RULES_TESTS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "LUSORIA_PURE_PYTHON": "1"},
    )
    assert finished.returncode == 0, finished.stdout[-3000:]
    assert " passed" in finished.stdout.splitlines()[-1]
    skipped = [line for line in finished.stdout.splitlines() if line.startswith("SKIPPED")]
    assert all(MISSING_CONFORMANCE.format(CONFORMANCE) in line for line in skipped), skipped  # only in a clone


@pytest.mark.parametrize("suffix", importlib.machinery.EXTENSION_SUFFIXES)
def test_a_module_compiled_under_any_suffix_gives_way_to_its_source(tmp_path, monkeypatch, suffix):
    """The finder looked for a compiled file by the first suffix only (`.cpython-…so`), where the
    status (`_places`) looks by each: one built as `.abi3.so` or `.so` ran though the sources were chosen."""
    (tmp_path / "fast.py").write_text("")
    (tmp_path / f"fast{suffix}").write_text("")
    monkeypatch.setattr(accelerator, "compiled", lambda: False)
    spec = accelerator._Sources().find_spec("lusoria.fast", [str(tmp_path)])
    assert spec is not None and spec.origin == str(tmp_path / "fast.py")


def test_a_module_of_no_package_has_no_places():
    with pytest.raises(ImportError, match="os is not a package: no source for os.path"):
        accelerator._places("os.path")


def build_backend():
    """build_backend.py, lusoria's build backend (setuptools', asking for what compiling needs)."""
    spec = importlib.util.spec_from_file_location("build_backend", ROOT / "build_backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_only_a_build_that_compiles_asks_for_mypyc_and_the_types_it_reads(monkeypatch):
    """A pure-Python install (LUSORIA_PURE_PYTHON=1, pre-commit's for its hooks) asked for mypy too, a
    static build requirement: pip installed it in every build environment, pre-commit's included."""
    backend = build_backend()
    for hook in ("get_requires_for_build_wheel", "get_requires_for_build_editable"):
        monkeypatch.setattr(backend.build_meta, hook, lambda config_settings=None: ["wheel"])
    for name in (accelerator.PURE_SWITCH, "PRE_COMMIT", "VIRTUAL_ENV"):
        monkeypatch.delenv(name, raising=False)
    compiling = backend.get_requires_for_build_wheel()
    assert compiling == ["wheel", "mypy==2.4.1", "lark>=1.2,<2", "sqlite-utils>=3.36", "zstandard>=0.22"]
    assert backend.get_requires_for_build_editable() == compiling
    for name, value in ((accelerator.PURE_SWITCH, "1"), ("PRE_COMMIT", "1")):
        with monkeypatch.context() as pure:
            pure.setenv(name, value)
            assert backend.get_requires_for_build_wheel() == backend.get_requires_for_build_editable() == ["wheel"]
    monkeypatch.setenv("VIRTUAL_ENV", str(ROOT / "py_env-python3.11"))  # pre-commit's environment in its clone
    assert backend.pure_build() == "pre-commit installs its hooks"
