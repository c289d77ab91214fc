"""The README's tour of the archive runs as a reader types it: every command succeeds in turn
(`duplicates` finds some in the samples: its exit status 1 says so, as its help does)."""

import re
import shlex
import shutil
from pathlib import Path

from click.testing import CliRunner

from lusoria.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOUR = re.compile(r"```console\n(\$ lusoria import samples\n.*?)```", re.S)


def tour() -> list[list[str]]:
    """The commands of the README's block that starts with `lusoria import samples`, but `serve`."""
    (block,) = TOUR.findall((ROOT / "README.md").read_text())
    commands = [shlex.split(line.removeprefix("$ "), comments=True) for line in block.splitlines()]
    return [command[1:] for command in commands if command[1] != "serve"]


def test_every_command_of_the_readme_tour_succeeds(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LUSORIA_DB", raising=False)
    runner = CliRunner()
    said = [(command, runner.invoke(main, command)) for command in tour()]
    assert len(said) == 11
    assert [(command[0], result.exit_code) for command, result in said if result.exit_code] == [("duplicates", 1)]
    assert all(result.stdout for _, result in said)
