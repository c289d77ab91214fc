"""lusoria's build backend: setuptools' (`setuptools.build_meta`), which asks for what compiling the
accelerator needs (mypyc, and the packages whose types it reads: pyproject.toml's
`[tool.lusoria] compile-requires`) only for a build that compiles (setup.py): a pure-Python install
(LUSORIA_PURE_PYTHON=1, or pre-commit's for its hooks) fetches no mypy into its build environment."""

import importlib.util
import os
import tomllib
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (every other hook of setuptools' backend, as it is)

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("accelerator", ROOT / "lusoria" / "accelerator.py")
assert _spec is not None and _spec.loader is not None
accelerator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(accelerator)


def for_pre_commit() -> bool:
    """Whether pre-commit is installing lusoria for its hooks (`pre-commit run` sets PRE_COMMIT=1;
    every pre-commit command installs into a virtualenv `py_env-…` it makes in its clone of the
    project): pure Python checks a commit's records in a moment, where compiling takes minutes."""
    environment = Path(os.environ.get("VIRTUAL_ENV") or "/")
    return os.environ.get("PRE_COMMIT") == "1" or (
        environment.name.startswith("py_env-") and environment.parent.resolve() == ROOT
    )


def pure_build() -> str | None:
    """Why this build installs pure Python, or None when it compiles."""
    if accelerator.pure_requested():
        return f"{accelerator.PURE_SWITCH} is set"
    return "pre-commit installs its hooks" if for_pre_commit() else None


def compile_requires() -> list[str]:
    """What compiling needs besides setuptools; nothing for a pure-Python build."""
    if pure_build():
        return []
    with open(ROOT / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["lusoria"]["compile-requires"])


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    return build_meta.get_requires_for_build_wheel(config_settings) + compile_requires()


def get_requires_for_build_editable(config_settings: dict | None = None) -> list[str]:
    return build_meta.get_requires_for_build_editable(config_settings) + compile_requires()
