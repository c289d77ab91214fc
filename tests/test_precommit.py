"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit on a fresh git repository."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from lusoria import api

from conftest import ROOT

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
GOOD = next(api.random_records("tablut", 1, seed=1, max_plies=20))  # valid and canonical
ILLEGAL = '[Game "tablut"]\n[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n' \
          '[Black "?"]\n[Result "*"]\n\n1. e3-c3 e4-b4 *\n'  # canonical, but e4 is White's
UNFORMATTED = '[Game "tablut"]\n1. e3-c3 d1-d3 *\n'  # valid, not canonical


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


def repository(folder: Path, config: list[dict], files: dict[str, str]) -> Path:
    folder.mkdir()
    git(folder, "init", "-q")
    (folder / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": config}))
    for name, text in files.items():
        (folder / name).write_text(text)
    git(folder, "add", "-A")
    return folder


def pre_commit(folder: Path, home: Path) -> subprocess.CompletedProcess:
    bin_folder = str(Path(sys.executable).parent)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"], cwd=folder,
                          capture_output=True, text=True,
                          env={**os.environ, "PRE_COMMIT_HOME": str(home),
                               "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")})


def test_the_hooks_are_validate_and_fmt_check_on_lgn_files():
    assert [(h["id"], h["entry"], h["files"], h["language"]) for h in HOOKS] == [
        ("lusoria-validate", "lusoria validate", r"\.lgn$", "python"),
        ("lusoria-fmt", "lusoria fmt --check", r"\.lgn$", "python")]


def local_config() -> list[dict]:
    """The hooks as declared, run with the lusoria installed here (language: system)."""
    return [{"repo": "local", "hooks": [{**hook, "language": "system"} for hook in HOOKS]}]


def test_good_records_pass_both_hooks(tmp_path):
    folder = repository(tmp_path / "club", local_config(), {"a.lgn": GOOD, "notes.txt": "not a record ["})
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 0, result.stdout
    assert "lusoria validate" in result.stdout and "lusoria fmt --check" in result.stdout


def test_an_illegal_ply_fails_validate_with_its_rule(tmp_path):
    folder = repository(tmp_path / "club", local_config(), {"a.lgn": GOOD, "b.lgn": ILLEGAL})
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 1
    validate, fmt = result.stdout.split("lusoria fmt --check")
    assert "b.lgn:10:10: error[T1]: the piece on e4 is White's" in validate and "Failed" in validate
    assert "Passed" in fmt


def test_a_record_not_in_canonical_form_fails_fmt(tmp_path):
    folder = repository(tmp_path / "club", local_config(), {"a.lgn": GOOD, "b.lgn": UNFORMATTED})
    result = pre_commit(folder, tmp_path / "home")
    validate, fmt = result.stdout.split("lusoria fmt --check")
    assert result.returncode == 1 and "Passed" in validate
    assert "b.lgn: not in canonical form" in fmt and "a.lgn" not in fmt


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="not a git checkout")
def test_pre_commit_installs_the_hooks_from_the_project(tmp_path):
    """As a club's repository uses them: pre-commit clones the project at a commit and installs
    it in an environment of its own (pip, from PyPI)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    committed = subprocess.run(["git", "show", "HEAD:.pre-commit-hooks.yaml"], cwd=ROOT, capture_output=True)
    if committed.returncode != 0:
        pytest.skip(".pre-commit-hooks.yaml is not committed yet")
    config = [{"repo": str(ROOT), "rev": head.strip(), "hooks": [{"id": "lusoria-validate"}, {"id": "lusoria-fmt"}]}]
    folder = repository(tmp_path / "club", config, {"a.lgn": GOOD, "b.lgn": ILLEGAL})
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "b.lgn:10:10: error[T1]" in result.stdout
