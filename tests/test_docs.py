"""The docs show real output: cog regenerates it, and this test fails when it is stale."""

import subprocess
import sys

from conftest import ROOT


def test_docs_output_is_current(in_root):
    documents = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
    result = subprocess.run([sys.executable, "-m", "cogapp", "--check", "-I", "docs", *documents],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr + "\nrun: cog -r -I docs README.md docs/*.md"


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[2] == "```sh" and lines[5] == "```"
    assert "lusoria validate samples/" in lines[3] and lines[4].endswith("pytest")
