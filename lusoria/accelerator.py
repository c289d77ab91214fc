"""The compiled accelerator: the modules mypyc compiles at install time (setup.py), and
whether this process runs them or their pure-Python sources (docs/design.md, "Speed").

One rule says which modules are compiled: those whose source carries the line MARK (the rules
modules and the reader's hot paths), found by `marked` at install time; a process learns which
were built from mypyc's shared library (`built`).

The compiled modules are used only all together and only when each is at least as new as
its source: after an edit (or a checkout) the sources run until the next `pip install -e .`.
`LUSORIA_PURE_PYTHON=1` chooses the sources at run time (and skips compiling at install).
This module imports nothing of lusoria: setup.py reads it before the package is installed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

MARK = "# lusoria: compiled with mypyc"  # the line that makes a module compiled (a hot path)
PACKAGE = "lusoria"
SHARED_LIBRARY = "lusoria.accelerated"  # mypyc's library of the compiled code; each module loads it
PURE_SWITCH = "LUSORIA_PURE_PYTHON"
SAME_INSTALL = 2.0  # seconds: a source written this soon after its compiled module came with it (pip
# writes a wheel's files in turn, the compiled one first); later, it was edited since the build


def pure_requested() -> bool:
    """Whether LUSORIA_PURE_PYTHON asks for the sources (set, and not empty or 0)."""
    return os.environ.get(PURE_SWITCH, "") not in ("", "0")


def installed_layout(root: Path, folder: Path) -> Path:
    """The package laid out as installed (pyproject's package-dir), as symbolic links in
    `folder`: mypy and mypyc name modules by folders, and read no package-dir mapping.
    Returns the `lusoria` folder made there."""
    mapping = package_folders(root)
    links = {f"lusoria/{entry.name}": entry for entry in mapping["lusoria"].iterdir() if entry.name != "__pycache__"}
    links.update({name.replace(".", "/"): source for name, source in mapping.items() if name != "lusoria"})
    (folder / "lusoria").mkdir(parents=True, exist_ok=True)
    for name, target in links.items():
        link = folder / name
        if link.is_symlink():
            link.unlink()  # made by an earlier build, perhaps of a checkout moved since
        link.symlink_to(target.resolve())
    return folder / "lusoria"


def package_folders(root: Path) -> dict[str, Path]:
    """The folder of each package in the source tree, by package name (pyproject's package-dir)."""
    import tomllib  # only when building or type-checking: not at start-up

    mapping = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    return {name: root / folder for name, folder in mapping.items()}


def marked(package: Path) -> list[str]:
    """The modules of the package laid out in `package` (`installed_layout`) whose source carries
    MARK on a line of its own: what setup.py compiles."""
    sources = [
        Path(folder, name)
        for folder, _, names in os.walk(package, followlinks=True)  # subpackages are links
        for name in names
        if name.endswith(".py")
    ]
    return sorted(
        ".".join(source.relative_to(package.parent).with_suffix("").parts)
        for source in sources
        if MARK in source.read_text("utf-8").splitlines()
    )


@cache
def built() -> tuple[str, ...]:
    """The modules that mypyc's shared library holds (its `init_lusoria___…` exports, one a
    module); none when it is not built."""
    if importlib.util.find_spec(SHARED_LIBRARY + "__mypyc") is None:
        return ()
    library = importlib.import_module(SHARED_LIBRARY + "__mypyc")
    return tuple(
        sorted(
            export.removeprefix("init_").replace("___", ".")
            for export in dir(library)
            if export.startswith(f"init_{PACKAGE}___")
        )
    )


def _places(name: str) -> tuple[Path, Path | None]:
    """A compiled module's source and its compiled file (None when not built)."""
    parent, _, leaf = name.rpartition(".")
    spec = importlib.util.find_spec(parent)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"{parent} is not a package: no source for {name}")
    for folder in spec.submodule_search_locations:
        source = Path(folder, f"{leaf}.py")
        if source.exists():
            return source, _compiled_file(folder, leaf)
    raise ImportError(f"no source for {name}")


def _compiled_file(folder: str, leaf: str) -> Path | None:
    """The compiled module `leaf` of a package folder, by any suffix this Python imports (None when not built)."""
    built = (Path(folder, leaf + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return next((path for path in built if path.exists()), None)


@cache
def status() -> tuple[bool, str]:
    """Whether the compiled modules run in this process, and why (in a few words)."""
    if pure_requested():
        return False, f"pure Python: {PURE_SWITCH} is set"
    if not built():
        return False, "pure Python: the accelerator is not built"
    for name in built():
        source, extension = _places(name)
        if extension is None:
            return False, f"pure Python: {name} is not built"
        if extension.stat().st_mtime + SAME_INSTALL < source.stat().st_mtime:
            return False, f"pure Python: {source.name} is newer than its compiled module (pip install -e . again)"
    return True, "compiled with mypyc"


def compiled() -> bool:
    """Whether this process runs the compiled modules."""
    return status()[0]


def describe() -> str:
    """What runs, for `lusoria --version`: compiled, or pure Python and why."""
    return status()[1]


class _Sources:
    """Finds the sources of the modules compiled beside them, ahead of their compiled files, when
    the compiled modules do not run (whether they do is asked only of a module built beside
    its source: deciding imports packages, which come here too). A finder of `sys.meta_path`
    needs no base class, and importlib.abc takes a tenth of start-up."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None):
        if path is None or not name.startswith(PACKAGE + "."):
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = Path(folder, f"{leaf}.py")
            if source.exists():
                if _compiled_file(folder, leaf) is None or compiled():
                    return None
                return importlib.util.spec_from_file_location(name, source)
        return None


def choose() -> None:
    """Make the imports of the compiled modules follow `status` (once, from lusoria/__init__)."""
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
