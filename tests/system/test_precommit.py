"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit on a fresh git repository."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, built_in_formats

from lusoria import api

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
GOOD = next(api.random_records("tablut", 1, seed=1, max_plies=20))  # valid and canonical
ILLEGAL = (
    '[Game "tablut"]\n[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n'
    '[Black "?"]\n[Result "*"]\n\n1. e3-c3 e4-b4 *\n'
)  # canonical, but e4 is White's
UNFORMATTED = '[Game "tablut"]\n1. e3-c3 d1-d3 *\n'  # valid, not canonical


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=folder,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        },
    )


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
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "PRE_COMMIT_HOME": str(home), "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")},
    )


def test_the_hooks_are_validate_fmt_and_validate_of_the_formats_known_by_their_content():
    assert [(h["id"], h["entry"], h["files"], h.get("exclude"), h["language"]) for h in HOOKS] == [
        ("lusoria-validate", "lusoria validate", r"(?i)(\.lgn|\.otg|\.otn|_gamelog\.txt)$", None, "python"),
        ("lusoria-fmt", "lusoria fmt --check", r"(?i)\.lgn$", None, "python"),
        ("lusoria-fmt-write", "lusoria fmt --write", r"(?i)\.lgn$", None, "python"),
        ("lusoria-validate-aage", "lusoria validate --from aage", r"(?i)\.json$", None, "python"),
        ("lusoria-validate-tafl", "lusoria validate --from tafl", r"(?i)\.txt$", r"(?i)_gamelog\.txt$", "python"),
        ("lusoria-validate-csv", "lusoria validate --from csv", r"(?i)\.csv$", None, "python"),
    ]


def test_lusoria_validate_takes_the_files_whose_names_alone_say_their_format():
    """Its pattern is made of the name endings that say a format alone (a format's `named`, the
    suffixes of one that sniffs nothing), in the formats' order: not `.log`, which a Tablut Challenge
    log may end with but a club's other logs too (a folder's walk reads one only when it starts as a
    game log; named, one that does not fails validate), nor `.txt`, `.json` and `.csv`, whose hooks
    read them with --from."""
    from lusoria.formats import BUILT_IN

    endings = [ending for entry in BUILT_IN for ending in (*entry.named, *(() if entry.sniff else entry.suffixes))]
    [validate] = [hook for hook in HOOKS if hook["id"] == "lusoria-validate"]
    assert validate["files"] == f"(?i)({'|'.join(map(re.escape, endings))})$"


FILES = [
    ("club/game.lgn", "lgn"),
    ("GAME.LGN", "lgn"),
    ("opentafl/Game.otg", "otn"),
    ("converted/game.otn", "otn"),  # lusoria convert --to otn > game.otn
    ("scrapes/2025.json", "aage"),
    ("logs/Rossi_vs_Verdi_1763722800000_gameLog.txt", "tablut-challenge"),
    ("lists/saami.txt", "tafl"),
    ("games/copenhagen.csv", "csv"),
]


def test_the_files_below_are_of_every_format_lusoria_reads():
    assert {format for _, format in FILES} == built_in_formats()


@pytest.mark.parametrize("name, format", FILES)
def test_one_hook_validates_each_format_lusoria_reads_in_that_format(name, format):
    """Each format has one validating hook that takes its files and reads them in it: by
    --from, or by the name alone (lusoria.formats.format_of)."""
    from lusoria.formats import format_of

    taking = [
        h
        for h in HOOKS
        if h["entry"].startswith("lusoria validate")
        and re.search(h["files"], name)
        and not re.search(h.get("exclude") or "(?!)", name)
    ]
    assert len(taking) == 1
    assert (taking[0]["entry"].partition("--from ")[2] or format_of(name)) == format


def local_config(*ids: str) -> list[dict]:
    """The hooks `ids` as declared, run with the lusoria installed here (language: system)."""
    return [{"repo": "local", "hooks": [{**hook, "language": "system"} for hook in HOOKS if hook["id"] in ids]}]


README_HOOKS = ("lusoria-validate", "lusoria-fmt")
FORMATS = ROOT / "tests" / "fixtures" / "formats"
BAD_OTG = (FORMATS / "errors" / "bad-move.otg").read_text()  # 6:13, T4
BAD_JSON = (FORMATS / "aage" / "scrape.json").read_text()  # its fourth game: 31:60, T4
BAD_MOVE_LIST = "e8-b8 d5-d6 d1-d5xc4\n"  # 1:13, T4 (aage rules)
GOOD_LOG = (FORMATS / "tablut-challenge" / "Bianchi_vs_Neri_1763719200000_gameLog.txt").read_text()


def test_good_records_pass_both_hooks(tmp_path):
    folder = repository(
        tmp_path / "club",
        local_config(*README_HOOKS),
        {"a.lgn": GOOD, "notes.txt": "not a record [", "package.json": "{}"},
    )
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 0, result.stdout
    assert "lusoria validate" in result.stdout and "lusoria fmt --check" in result.stdout


def test_an_illegal_ply_fails_validate_with_its_rule(tmp_path):
    folder = repository(tmp_path / "club", local_config(*README_HOOKS), {"a.lgn": GOOD, "b.lgn": ILLEGAL})
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 1
    validate, fmt = result.stdout.split("lusoria fmt --check")
    assert "b.lgn:10:10: error[T1]: move 1, Black: the piece on e4 is White's" in validate and "Failed" in validate
    assert "Passed" in fmt


def test_a_record_not_in_canonical_form_fails_fmt(tmp_path):
    folder = repository(tmp_path / "club", local_config(*README_HOOKS), {"a.lgn": GOOD, "b.lgn": UNFORMATTED})
    result = pre_commit(folder, tmp_path / "home")
    validate, fmt = result.stdout.split("lusoria fmt --check")
    assert result.returncode == 1 and "Passed" in validate
    assert "b.lgn: not in canonical form" in fmt and "a.lgn" not in fmt


def test_a_record_not_in_canonical_form_is_rewritten_by_fmt_write(tmp_path):
    """h79c: the fmt hook said to run `lusoria fmt --write`, which pre-commit's own environment does not put on
    the club's PATH: `lusoria-fmt-write` rewrites the file, and the commit fails until it is added again."""
    files = {"a.lgn": GOOD, "b.lgn": UNFORMATTED}
    folder = repository(tmp_path / "club", local_config("lusoria-fmt-write"), files)
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 1 and "files were modified by this hook" in result.stdout
    canonical, _ = api.format_record(UNFORMATTED)
    assert (folder / "a.lgn").read_text() == GOOD and (folder / "b.lgn").read_text() == canonical
    assert pre_commit(folder, tmp_path / "home").returncode == 0


def hook_output(stdout: str, name: str) -> str:
    """What pre-commit printed for the hook `name` (from its status line to the next one's)."""
    return re.search(rf"^{re.escape(name)}\.+.*?(?=^\S[^\n]*\.{{3,}}|\Z)", stdout, re.M | re.S)[0]


def test_the_hooks_catch_a_bad_record_of_every_other_format(tmp_path):
    """OpenTafl and Tablut Challenge files by lusoria-validate, scrapes and move lists by their own hooks;
    the fmt hook leaves files other than lgn alone."""
    hooks = local_config(*README_HOOKS, "lusoria-validate-aage", "lusoria-validate-tafl")
    folder = repository(
        tmp_path / "club",
        hooks,
        {
            "a.lgn": GOOD,
            "bad.otg": BAD_OTG,
            "scrape.json": BAD_JSON,
            "saami.txt": BAD_MOVE_LIST,
            "Bianchi_vs_Neri_1763719200000_gameLog.txt": GOOD_LOG,
        },
    )
    result = pre_commit(folder, tmp_path / "home")
    assert result.returncode == 1, result.stdout
    validate = hook_output(result.stdout, "lusoria validate")
    assert "Failed" in validate and "bad.otg:6:13: error[T4]: move 2, White: the move captures d5, not c4" in validate
    assert "3 records: 2 valid, 1 invalid" in validate  # a.lgn, bad.otg, the log
    aage = hook_output(result.stdout, "lusoria validate --from aage")
    assert "Failed" in aage and "scrape.json:31:60: error[T4]: move 4, Black: the move captures nothing, not d8" in aage
    tafl = hook_output(result.stdout, "lusoria validate --from tafl")
    assert "Failed" in tafl and "saami.txt:1:13: error[T4]" in tafl and "gameLog" not in tafl
    assert "Passed" in hook_output(result.stdout, "lusoria fmt --check")


def git_commit(folder: Path, home: Path) -> subprocess.CompletedProcess:
    """`git commit` in a club's repository, whose pre-commit hook (pre-commit install) runs pre-commit."""
    bin_folder = str(Path(sys.executable).parent)
    return subprocess.run(
        ["git", "commit", "-q", "-m", "games"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PRE_COMMIT_HOME": str(home),
            "PRE_COMMIT_COLOR": "never",
            "PATH": bin_folder + os.pathsep + os.environ.get("PATH", ""),
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        },
    )


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="not a git checkout")
def test_the_documented_configuration_installs_the_hooks_from_the_project_and_refuses_a_bad_commit(tmp_path):
    """As docs/editors.md tells a club: its configuration (docs/pre-commit-config.yaml, the repo
    this clone), `pre-commit autoupdate` (COMMIT: the project's newest commit), `pre-commit
    install`, then a commit, which the hooks refuse for a bad record of each format. pre-commit
    clones the project and installs it in an environment of its own (pip), as pure Python
    (setup.py: compiling took minutes)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    if (
        subprocess.run(
            ["git", "diff", "--quiet", "HEAD", "--", ".pre-commit-hooks.yaml", "setup.py", "build_backend.py"], cwd=ROOT
        ).returncode
        != 0
    ):
        pytest.skip("the hooks or the build differ from the last commit, which pre-commit installs")
    [config] = yaml.safe_load((ROOT / "docs" / "pre-commit-config.yaml").read_text())["repos"]
    alternative = {"lusoria-fmt-write"}  # (lusoria-fmt's, which rewrites: editors.md's table offers it)
    assert (
        config["rev"] == "COMMIT" and {hook["id"] for hook in config["hooks"]} == {h["id"] for h in HOOKS} - alternative
    )
    folder = repository(
        tmp_path / "club",
        [{**config, "repo": str(ROOT)}],
        {"a.lgn": GOOD, "b.lgn": ILLEGAL, "bad.otg": BAD_OTG, "notes.txt": "not a record [", "package.json": "{}"},
    )
    for name, text in (
        ("scrapes/2025.json", BAD_JSON),
        ("lists/saami.txt", BAD_MOVE_LIST),
        ("lists/README.md", "Move"),
    ):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(text)
    home = tmp_path / "home"
    for command in ("autoupdate", "install"):
        subprocess.run(
            [sys.executable, "-m", "pre_commit", command],
            cwd=folder,
            check=True,
            capture_output=True,
            env={**os.environ, "PRE_COMMIT_HOME": str(home)},
        )
    assert yaml.safe_load((folder / ".pre-commit-config.yaml").read_text())["repos"][0]["rev"] == head.strip()
    git(folder, "add", "-A")
    result = git_commit(folder, home)
    said = result.stdout + result.stderr  # git gives a hook's output on standard error
    assert result.returncode == 1, said
    for cited in (
        "b.lgn:10:10: error[T1]",
        "bad.otg:6:13: error[T4]",
        "scrapes/2025.json:31:60: error[T4]",
        "lists/saami.txt:1:13: error[T4]",
    ):
        assert cited in said
    assert "notes.txt" not in said and "package.json" not in said and "README.md" not in said  # (`files:` only games)
    assert subprocess.run(["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=folder).returncode != 0  # refused
    (installed,) = home.glob("repo*/py_env-*/bin/lusoria")
    built = {name: value for name, value in os.environ.items() if name != "LUSORIA_PURE_PYTHON"}  # (it says "is set")
    version = subprocess.run([installed, "--version"], capture_output=True, text=True, env=built).stdout
    assert "pure Python" in version and "not built" in version
