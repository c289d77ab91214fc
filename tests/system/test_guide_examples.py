"""The Python examples of the README and docs/archive.md run as a reader pastes them: in a folder
of their own beside the clone's samples (docs/api.md's run in tests/system/test_api_docs.py,
docs/design.md's recipe in tests/notation/test_visitor.py)."""

import re

import pytest
from conftest import ROOT


def examples(page: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", (ROOT / page).read_text(), re.M | re.S)


@pytest.mark.parametrize("page", ["README.md", "docs/archive.md"])
def test_the_examples_run(page, tmp_path, monkeypatch, capsys):
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    monkeypatch.chdir(tmp_path)
    example = examples(page)[0]  # (the rest of docs/archive.md: DuckDB sessions cog writes)
    exec(compile(example, page, "exec"), {})
    assert capsys.readouterr().err == ""
