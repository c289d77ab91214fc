"""mypy (the settings in pyproject.toml) finds nothing in the package, and it ships py.typed."""

import pytest
from typecheck import ROOT, typecheck


@pytest.mark.slow
def test_mypy_is_clean():
    finished = typecheck()
    assert finished.returncode == 0, finished.stdout + finished.stderr


def test_package_declares_its_types():
    assert (ROOT / "lusoria" / "py.typed").is_file()
